import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn, JoinColumn, ManyToOne } from 'typeorm';
import { PaymentDetail } from './payment-detail.entity';
import { Store } from './store.entity';

export type TransactionType = 'payin' | 'payout';

export const PAYIN_STATUSES = ['pending', 'processing', 'proof_requested', 'success', 'failed', 'canceled', 'expired'] as const;
export const PAYOUT_STATUSES = ['pending', 'processing', 'success', 'failed', 'canceled'] as const;
export type PayinStatus = (typeof PAYIN_STATUSES)[number];
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export type TransactionStatus = PayinStatus | PayoutStatus;

/**
 * Payins and payouts share one table: the merchant-facing payload is the same shape, and one
 * table keeps "a payout id on a payin path is 404" a matter of a `type` filter. Columns that
 * only one type uses are nullable.
 */
@Entity({ name: 'transactions' })
@Index('transactions_store_external_id_key', ['storeId', 'type', 'externalId'], { unique: true, where: '"external_id" IS NOT NULL' })
@Index('transactions_pending_expiry_idx', ['expiresAt'], { where: `"status" = 'pending' AND "type" = 'payin'` })
@Index('transactions_merchant_id_idx', ['merchantId', 'createdAt'])
@Index('transactions_payment_detail_pending_idx', ['paymentDetailId'], { where: `"status" = 'pending' AND "type" = 'payin'` })
@Index('transactions_proof_file_key_key', ['proofFileKey'], { unique: true, where: '"proof_file_key" IS NOT NULL' })
@Check('transactions_amount_positive', '"amount" > 0')
@Check('transactions_type_valid', `"type" IN ('payin', 'payout')`)
export class Transaction {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 8 })
  type: TransactionType;

  @Column({ name: 'merchant_id', type: 'integer' })
  merchantId: number;

  @Column({ name: 'store_id', type: 'integer' })
  storeId: number;

  @ManyToOne(() => Store, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'store_id', foreignKeyConstraintName: 'transactions_store_id_fkey' })
  store?: Store;

  /** The merchant's `paymentId`, answered as `externalId`. */
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  /** Hash of the create parameters: a repeated paymentId with other parameters is a 409. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ type: 'varchar', length: 20 })
  status: TransactionStatus;

  @Column({ type: 'numeric', precision: 20, scale: 2 })
  amount: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ name: 'exchange_rate', type: 'numeric', precision: 18, scale: 8, default: 1 })
  exchangeRate: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ name: 'is_test', type: 'boolean', default: false })
  isTest: boolean;

  @Column({ name: 'client_id', type: 'varchar', length: 32, nullable: true })
  clientId: string | null;

  @Column({ name: 'client_email', type: 'varchar', length: 320, nullable: true })
  clientEmail: string | null;

  @Column({ name: 'client_name', type: 'varchar', length: 255, nullable: true })
  clientName: string | null;

  @Column({ name: 'client_ip', type: 'varchar', length: 64, nullable: true })
  clientIp: string | null;

  @Column({ name: 'client_user_agent', type: 'text', nullable: true })
  clientUserAgent: string | null;

  @Column({ name: 'client_country', type: 'varchar', length: 64, nullable: true })
  clientCountry: string | null;

  @Column({ name: 'client_city', type: 'varchar', length: 128, nullable: true })
  clientCity: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  gate: string | null;

  @Column({ name: 'payment_method', type: 'varchar', length: 100, nullable: true })
  paymentMethod: string | null;

  @Column({ name: 'success_url', type: 'text', nullable: true })
  successUrl: string | null;

  @Column({ name: 'failure_url', type: 'text', nullable: true })
  failureUrl: string | null;

  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl: string | null;

  @Column({ name: 'webhook_method', type: 'varchar', length: 4, nullable: true })
  webhookMethod: 'get' | 'post' | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  language: string | null;

  @Column({ name: 'tgbot_id', type: 'varchar', length: 64, nullable: true })
  tgbotId: string | null;

  /** Receiving details drawn from the pool (payin). Copied, so later pool edits don't rewrite history. */
  @Column({ name: 'payment_detail_id', type: 'integer', nullable: true })
  paymentDetailId: number | null;

  @ManyToOne(() => PaymentDetail, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'payment_detail_id', foreignKeyConstraintName: 'transactions_payment_detail_id_fkey' })
  paymentDetail?: PaymentDetail;

  @Column({ name: 'pay_card_name', type: 'varchar', length: 255, nullable: true })
  payCardName: string | null;

  @Column({ name: 'pay_bank_name', type: 'varchar', length: 255, nullable: true })
  payBankName: string | null;

  /** Payin: the receiving card; payout: the recipient card. Sealed with FieldCipher. */
  @Column({ name: 'pay_card_number_enc', type: 'text', nullable: true })
  payCardNumberEnc: string | null;

  /** First 6 and last 4 digits, for responses without decrypting. */
  @Column({ name: 'pay_card_number_masked', type: 'varchar', length: 32, nullable: true })
  payCardNumberMasked: string | null;

  @Column({ name: 'pay_phone_number', type: 'varchar', length: 64, nullable: true })
  payPhoneNumber: string | null;

  @Column({ name: 'pay_qr_code', type: 'text', nullable: true })
  payQrCode: string | null;

  @Column({ name: 'pay_account_number', type: 'varchar', length: 64, nullable: true })
  payAccountNumber: string | null;

  @Column({ name: 'pay_iban_number', type: 'varchar', length: 64, nullable: true })
  payIbanNumber: string | null;

  /** `proof.ping`: true once a proof has been requested. */
  @Column({ name: 'proof_requested', type: 'boolean', default: false })
  proofRequested: boolean;

  @Column({ name: 'proof_file_key', type: 'varchar', length: 128, nullable: true })
  proofFileKey: string | null;

  @Column({ name: 'proof_mime_type', type: 'varchar', length: 100, nullable: true })
  proofMimeType: string | null;

  @Column({ name: 'proof_file_name', type: 'varchar', length: 255, nullable: true })
  proofFileName: string | null;

  @Column({ name: 'fee_amount', type: 'numeric', precision: 20, scale: 2, default: 0 })
  feeAmount: string;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig, APP_CONFIG } from '@app/config';
import type { Transaction } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { PayinService } from '../payin/payin.service';
import { pickLanguage, type NoticeKey } from './payment-page.i18n';
import { renderQr } from './payment-page.qr';
import { messengerBotUrl, pageState, statusBody, type PageStatusBody } from './payment-page.state';
import type { PaymentPageView, ReceivingDetails } from './payment-page.view';

/** The part of multer's file the page passes on. */
export interface UploadedReceipt {
  buffer: Buffer;
  originalname: string;
}

/**
 * What the payer's page needs: one payin by its id (the id in the link is the payer's only
 * credential), shown in the payin's language, with the receiving details only while it can
 * still be paid. Reads and moves go through PayinService's payer methods, so the page follows
 * the same state machine, proof rules and history (actor `payer`) as the API.
 */
@Injectable()
export class PaymentPageService {
  private readonly logger = new Logger(PaymentPageService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly payins: PayinService,
  ) {}

  /** The payin, or null when there is none (or the id is a payout's): the page shows 404 then. */
  private async find(id: string): Promise<Transaction | null> {
    try {
      return await this.payins.findForPayer(id);
    } catch (error) {
      if (error instanceof AppException && error.code === ErrorCode.TRANSACTION_NOT_FOUND)
        return null;
      throw error;
    }
  }

  async view(
    id: string,
    notice: NoticeKey | null,
    now = new Date(),
  ): Promise<PaymentPageView | null> {
    const payin = await this.find(id);
    if (!payin) return null;
    const state = pageState(payin, now);
    return {
      id: payin.id,
      language: pickLanguage(payin.language),
      state,
      amount: payin.amount,
      currency: payin.currency,
      description: payin.description,
      isTest: payin.isTest,
      // Decrypting is skipped altogether once the payin is final: nothing to pay into any more.
      details: state.final ? null : await this.receivingDetails(payin),
      messengerUrl: messengerBotUrl(this.config.core.messengerBotBaseUrl, payin.tgbotId, payin.id),
      notice,
    };
  }

  async status(id: string, notice?: NoticeKey, now = new Date()): Promise<PageStatusBody | null> {
    const payin = await this.find(id);
    if (!payin) return null;
    return statusBody(pageState(payin, now), pickLanguage(payin.language), notice);
  }

  /** "I have paid": pending → processing (a test payin settles at once). */
  async reportPaid(id: string): Promise<PageStatusBody> {
    await this.assertStillPayable(id);
    await this.payins.confirmByPayer(id);
    return this.statusOrNotFound(id, 'paid_reported');
  }

  /** The receipt, typed by content and stored by PayinService: pending or proof_requested → processing. */
  async uploadReceipt(id: string, file: UploadedReceipt): Promise<PageStatusBody> {
    await this.assertStillPayable(id);
    await this.payins.uploadProofByPayer(id, {
      content: file.buffer,
      originalName: file.originalname,
    });
    return this.statusOrNotFound(id, 'receipt_uploaded');
  }

  /**
   * The page shows a pending payin past its deadline as expired (the expiry job may not have
   * run yet); acting on it is refused the same way, so what the payer sees and what the
   * server accepts agree. Everything else is PayinService's state machine.
   */
  private async assertStillPayable(id: string): Promise<void> {
    const payin = await this.find(id);
    if (!payin) throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    if (pageState(payin, new Date()).final) {
      throw new AppException(ErrorCode.TRANSACTION_STATUS_CONFLICT, HttpStatus.CONFLICT);
    }
  }

  private async statusOrNotFound(id: string, notice: NoticeKey): Promise<PageStatusBody> {
    const body = await this.status(id, notice);
    if (!body) throw new AppException(ErrorCode.TRANSACTION_NOT_FOUND, HttpStatus.NOT_FOUND);
    return body;
  }

  private async receivingDetails(payin: Transaction): Promise<ReceivingDetails> {
    const qr = await renderQr(payin.payQrCode);
    return {
      cardNumber: this.openCardNumber(payin),
      bankName: payin.payBankName,
      cardName: payin.payCardName,
      phoneNumber: payin.payPhoneNumber,
      accountNumber: payin.payAccountNumber,
      ibanNumber: payin.payIbanNumber,
      qrImage: qr?.image ?? null,
      qrLink: qr?.link ?? null,
    };
  }

  /** The one place the full receiving card number leaves the database (decisions.md section 3). */
  private openCardNumber(payin: Transaction): string | null {
    try {
      return this.payins.receivingCardNumber(payin);
    } catch {
      // A key rotated without re-sealing: show the other details rather than no page at all.
      this.logger.error(
        { transactionId: payin.id },
        'receiving card number could not be decrypted',
      );
      return null;
    }
  }
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const TIMESTAMP = 'UTC timestamp, format `dd.mm.yyyy HH:mm:ss`.';

export class PaymentDetailsDto {
  @ApiProperty({ type: String, nullable: true, example: 'IVAN PETROV' })
  cardName: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Demo Bank' })
  bankName: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '411111******1111',
    description: 'Masked: first 6 and last 4 digits kept.',
  })
  cardNumber: string | null;

  @ApiProperty({ type: String, nullable: true, example: '+10000000000' })
  phoneNumber: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  qrCode: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  accountNumber: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'DE89370400440532013000' })
  ibanNumber: string | null;
}

export class ClientDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '42',
    description: 'Always a string, although `clientId` is sent as a number.',
  })
  id: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'payer@example.com' })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Jane Payer' })
  name: string | null;

  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7' })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  userAgent: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  country: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  city: string | null;
}

export class ProofFileDto {
  @ApiProperty({
    example: 'http://127.0.0.1:3001/files/6c1f0e0a9b8d4f2e.png?expires=1795431600&sig=3f5a…',
    description:
      'Expiring signed link; served with `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`.',
  })
  fileUrl: string;

  @ApiProperty({ example: 'image/png', description: 'Type decided from the file content.' })
  mimeType: string;

  @ApiProperty({ example: 'receipt.png' })
  fileName: string;
}

export class ProofDto {
  @ApiProperty({
    example: false,
    description: 'True once an operator has requested a proof of payment.',
  })
  ping: boolean;

  @ApiProperty({
    type: ProofFileDto,
    nullable: true,
    description: 'Null until a proof has been uploaded.',
  })
  file: ProofFileDto | null;
}

/** merchant-api.md section 2.1. */
export class TransactionPayloadDto {
  @ApiProperty({ example: '23.11.2026 12:00:00', description: TIMESTAMP })
  createdAt: string;

  @ApiProperty({ example: '23.11.2026 12:00:00', description: TIMESTAMP })
  updatedAt: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '23.11.2026 12:30:00',
    description: `${TIMESTAMP} When a pending payin expires; null for payouts.`,
  })
  expiresAt: string | null;

  @ApiProperty({ example: 7 })
  merchantId: number;

  @ApiPropertyOptional({
    example: 'order-1001',
    description: 'The `paymentId` given at creation; absent when none was given.',
  })
  externalId?: string;

  @ApiProperty({ format: 'uuid', example: '0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f' })
  transactionId: string;

  @ApiProperty({
    example: 'pending',
    description:
      'Payin: pending, processing, proof_requested, success, failed, canceled, expired. Payout: pending, processing, success, failed, canceled.',
  })
  status: string;

  @ApiProperty({ example: 100.5, description: 'At most 2 decimal places.' })
  amount: number;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 code of the store.' })
  currency: string;

  @ApiProperty({ example: 1 })
  exchangeRate: number;

  @ApiProperty({ type: String, nullable: true, example: 'Order #1001' })
  description: string | null;

  @ApiProperty({ example: false })
  isTest: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'http://127.0.0.1:3001/pay/0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f',
    description:
      'Payins: `<PUBLIC_BASE_URL>/pay/<transactionId>`, the page the payer pays on. Null for payouts, which have no payer page.',
  })
  paymentPage: string | null;

  @ApiPropertyOptional({
    example: 'https://t.me/demo_pay_bot?tid=0b5d7f3e-2c1a-4e8b-9f6d-3a2b1c0d9e8f',
    description:
      '`<MESSENGER_BOT_BASE_URL>/<tgbotId>?tid=<transactionId>`; present only when the payin was created with `tgbotId`.',
  })
  paymentMessengerBot?: string;

  @ApiProperty({
    type: PaymentDetailsDto,
    description: 'Receiving details (payin) or the recipient card (payout).',
  })
  payment: PaymentDetailsDto;

  @ApiProperty({ type: ClientDto })
  client: ClientDto;

  @ApiProperty({ type: ProofDto })
  proof: ProofDto;
}

export class TransactionResponseDto {
  @ApiProperty({ example: 'OK', enum: ['OK'] })
  message: 'OK';

  @ApiProperty({ type: TransactionPayloadDto })
  data: TransactionPayloadDto;
}

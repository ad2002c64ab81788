import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsUrl, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type { WebhookMethod } from '@app/database';

export class UpdateStoreWebhookDto {
  @ApiProperty({
    nullable: true,
    example: 'https://shop.example.com/payments/webhook',
    description:
      'Default notification URL of the store (payouts, and payins created without webhookUrl); null removes it',
  })
  @ValidateIf((_dto, value) => value !== null)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'url must be an absolute http or https URL' },
  )
  @MaxLength(2048)
  url: string | null;

  @ApiPropertyOptional({ enum: ['get', 'post'], default: 'post', description: 'Any case' })
  @OptionalNotNull()
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['get', 'post'], { message: 'method must be get or post' })
  method?: WebhookMethod;
}

/** A store's webhook defaults, as the admin API shows them. */
export interface StoreWebhookView {
  storeId: number;
  url: string | null;
  method: WebhookMethod | null;
}

/** The answer of a secret rotation: the only time the new secret is returned by this endpoint. */
export interface WebhookSecretView {
  storeId: number;
  webhookSecret: string;
}

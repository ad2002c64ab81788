import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { FieldCipher } from '@app/crypto';
import { FIELD_CIPHER } from './auth.tokens';
import { MerchantAuthGuard } from './merchant-auth.guard';
import { NonceStore } from './nonce-store';
import { RateLimitService } from './rate-limit.service';
import { StoreCredentialsCache } from './store-credentials.cache';
import { StoreCredentialsRepository } from './store-credentials.repository';

/**
 * Merchant authentication. Import it into every module whose controllers use @MerchantAuth.
 * Needs the global APP_CONFIG, REDIS_CLIENT and the TypeORM DataSource.
 */
@Module({
  providers: [
    {
      provide: FIELD_CIPHER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new FieldCipher(config.secrets.encryptionKey),
    },
    StoreCredentialsRepository,
    StoreCredentialsCache,
    NonceStore,
    RateLimitService,
    MerchantAuthGuard,
  ],
  exports: [
    MerchantAuthGuard,
    StoreCredentialsRepository,
    StoreCredentialsCache,
    NonceStore,
    RateLimitService,
    FIELD_CIPHER,
  ],
})
export class AuthModule {}

import { Global, Module } from '@nestjs/common';
import { AppConfig, APP_CONFIG } from '@app/config';
import { FieldCipher } from '@app/crypto';

/**
 * One FieldCipher for the core, keyed by ENCRYPTION_KEY: private tokens, webhook secrets and
 * card numbers are sealed and opened with it. Inject it as `FieldCipher`.
 */
@Global()
@Module({
  providers: [
    {
      provide: FieldCipher,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new FieldCipher(config.secrets.encryptionKey),
    },
  ],
  exports: [FieldCipher],
})
export class FieldCipherModule {}

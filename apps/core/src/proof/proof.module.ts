import { Module } from '@nestjs/common';
import { AppConfig, APP_CONFIG } from '@app/config';
import { FilesController } from './files.controller';
import { LocalDiskProofStorage } from './local-disk-proof-storage';
import { PROOF_STORAGE } from './proof-storage';

@Module({
  providers: [
    {
      provide: PROOF_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new LocalDiskProofStorage(config.core.storageDir),
    },
  ],
  controllers: [FilesController],
  exports: [PROOF_STORAGE],
})
export class ProofModule {}

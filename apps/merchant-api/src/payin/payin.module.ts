import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { PayinController } from './payin.controller';
import { PayinRepository } from './payin.repository';
import { PayinService } from './payin.service';
import { ProofUploadMiddleware } from './proof-upload.middleware';

@Module({
  imports: [AuthModule, TransactionsModule, IdempotencyModule],
  controllers: [PayinController],
  providers: [PayinRepository, PayinService],
  exports: [PayinService],
})
export class PayinModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(ProofUploadMiddleware)
      .forRoutes({ path: 'api/v1/payin/:transactionId', method: RequestMethod.POST });
  }
}

import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { PayinModule } from '../payin/payin.module';
import { PaymentPageAssets } from './payment-page.assets';
import { PaymentPageController } from './payment-page.controller';
import { PaymentPageExceptionFilter } from './payment-page.filter';
import { PaymentPageHeadersMiddleware } from './payment-page.headers';
import { PaymentPageService } from './payment-page.service';

/** The payer's hosted payment page (`/pay/<transactionId>`): HTML, its script and stylesheet, status polling. */
@Module({
  imports: [PayinModule],
  controllers: [PaymentPageController],
  providers: [PaymentPageService, PaymentPageAssets, PaymentPageExceptionFilter],
})
export class PaymentPageModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(PaymentPageHeadersMiddleware).forRoutes(PaymentPageController);
  }
}

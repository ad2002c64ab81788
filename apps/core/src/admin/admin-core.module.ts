import { Module } from '@nestjs/common';
import { AdminAuditService } from './admin-audit.service';
import { AdminAuthGuard } from './admin-auth.guard';

/**
 * What every admin feature module needs: the bearer-token guard and the audit writer. Feature
 * modules (this folder's AdminModule, webhooks' resend, ...) import it and put
 * `@UseGuards(AdminAuthGuard)` on their controllers.
 */
@Module({
  providers: [AdminAuthGuard, AdminAuditService],
  exports: [AdminAuthGuard, AdminAuditService],
})
export class AdminCoreModule {}

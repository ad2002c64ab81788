import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EntityManager } from 'typeorm';
import { AdminAuditService } from './admin-audit.service';
import { AdminAuthGuard } from './admin-auth.guard';
import { ListAuditQueryDto } from './dto/audit.dto';

export interface AuditEntryView {
  id: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  at: string;
}

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminAuthGuard)
@Controller('admin/v1/audit')
export class AdminAuditController {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    private readonly audit: AdminAuditService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The audit log, newest first (who, when, what)' })
  async list(@Query() query: ListAuditQueryDto): Promise<{ items: AuditEntryView[] }> {
    const rows = await this.audit.list(this.manager, {
      limit: query.limit ?? 50,
      targetType: query.targetType,
      targetId: query.targetId,
    });
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        actor: row.actor,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        details: row.payload,
        at: row.createdAt.toISOString(),
      })),
    };
  }
}

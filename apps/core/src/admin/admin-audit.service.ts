import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AdminAuditLog } from '@app/database';

export interface AdminAuditEntry {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  /** What changed. Never a token, a secret or a full card number. */
  details?: object;
}

/**
 * Writes the audit row inside the caller's transaction, so an action and its audit record
 * commit or roll back together.
 */
@Injectable()
export class AdminAuditService {
  async record(manager: EntityManager, entry: AdminAuditEntry): Promise<AdminAuditLog> {
    const row = manager.create(AdminAuditLog, {
      actor: entry.actor,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      payload: (entry.details ?? {}) as Record<string, unknown>,
    });
    return manager.save(AdminAuditLog, row);
  }

  /** Newest first. */
  async list(
    manager: EntityManager,
    options: { limit: number; targetType?: string; targetId?: string },
  ): Promise<AdminAuditLog[]> {
    const where: Partial<Pick<AdminAuditLog, 'targetType' | 'targetId'>> = {};
    if (options.targetType) where.targetType = options.targetType;
    if (options.targetId) where.targetId = options.targetId;
    return manager.find(AdminAuditLog, { where, order: { id: 'DESC' }, take: options.limit });
  }
}

import { HttpStatus } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Transaction, TransactionType } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { hydrate } from '../common/sql';
import { CreatedTransaction } from './transaction-results';

/**
 * Idempotent creates by the merchant's paymentId (`externalId`), unique per store and type.
 * The insert runs ON CONFLICT DO NOTHING: PostgreSQL makes it wait for a concurrent insert of
 * the same id and then skip, so the unique index decides and no duplicate ever errors out.
 */
export class ExternalIdTaken extends Error {
  constructor() {
    super('externalId already taken');
  }
}

export function findByExternalId(
  manager: EntityManager,
  storeId: number,
  type: TransactionType,
  externalId: string,
): Promise<Transaction | null> {
  return manager.findOne(Transaction, { where: { storeId, type, externalId } });
}

/** The answer to a repeated externalId: the first transaction when the parameters match, else 409. */
export function repeatOf(existing: Transaction, requestHash: string): CreatedTransaction {
  if (existing.requestHash !== requestHash)
    throw new AppException(ErrorCode.DUPLICATE_PAYMENT_ID, HttpStatus.CONFLICT);
  return { transactionId: existing.id, created: false };
}

/**
 * Inserts a new transaction unless its externalId was taken meanwhile (then throws
 * ExternalIdTaken, rolling back the caller), and returns it as stored, the database's defaults
 * and clock included.
 */
export async function insertTransaction(
  manager: EntityManager,
  values: QueryDeepPartialEntity<Transaction>,
): Promise<Transaction> {
  const result = await manager
    .createQueryBuilder()
    .insert()
    .into(Transaction)
    .values(values)
    .orIgnore()
    .returning('*')
    .updateEntity(false)
    .execute();
  const [row] = result.raw as Record<string, unknown>[];
  if (!row) throw new ExternalIdTaken();
  return hydrate(manager, Transaction, row);
}

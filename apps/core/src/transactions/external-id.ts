import { createHash } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import { EntityManager, EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { PreparedStatement, queryPreparedIn, Transaction, TransactionType } from '@app/database';
import { AppException, ErrorCode } from '@app/errors';
import { columnsOf, hydrate } from '../common/sql';
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

/** A new transaction's columns: values only (the database's defaults and clock fill the rest). */
export type NewTransaction = Partial<
  Omit<Transaction, 'expiresAt' | 'createdAt' | 'updatedAt' | 'store' | 'paymentDetail'>
>;

/** The INSERT statements built so far, by the columns they write. */
const insertStatements = new Map<string, PreparedStatement>();

/**
 * Inserts a new transaction unless its externalId was taken meanwhile (then throws
 * ExternalIdTaken, rolling back the caller), and returns it as stored, the database's defaults
 * and clock included. `expiresInSeconds` sets `expires_at` from the database's clock, which is
 * the one the expiry worker compares with.
 *
 * A prepared statement per set of columns written (a payin's, a payout's): built by TypeORM's
 * query builder, the 40-column INSERT cost the core more CPU than PostgreSQL spent running it,
 * and PostgreSQL planned it again on every call (docs/benchmarks.md).
 */
export async function insertTransaction(
  manager: EntityManager,
  values: NewTransaction,
  expiresInSeconds?: number,
): Promise<Transaction> {
  const metadata = manager.connection.getMetadata(Transaction);
  const columns = Object.keys(values)
    .filter((property) => values[property as keyof NewTransaction] !== undefined)
    .map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`transactions has no column for ${property}`);
      return column;
    });
  const parameters = columns.map((column) =>
    manager.connection.driver.preparePersistentValue(column.getEntityValue(values), column),
  );
  if (expiresInSeconds !== undefined) parameters.push(expiresInSeconds);
  const key = `${columns.map((column) => column.databaseName).join()}|${expiresInSeconds !== undefined}`;
  let statement = insertStatements.get(key);
  if (!statement) {
    statement = insertStatement(metadata, columns, expiresInSeconds !== undefined);
    insertStatements.set(key, statement);
  }
  const [row] = await queryPreparedIn<Record<string, unknown>>(manager, statement, parameters);
  if (!row) throw new ExternalIdTaken();
  return hydrate(manager, Transaction, row);
}

function insertStatement(
  metadata: EntityMetadata,
  columns: ColumnMetadata[],
  withExpiry: boolean,
): PreparedStatement {
  const names = columns.map((column) => `"${column.databaseName}"`);
  const placeholders = columns.map((_, index) => `$${index + 1}`);
  if (withExpiry) {
    names.push('"expires_at"');
    placeholders.push(`now() + make_interval(secs => $${columns.length + 1})`);
  }
  const text =
    `INSERT INTO transactions (${names.join(', ')}) VALUES (${placeholders.join(', ')})` +
    ` ON CONFLICT DO NOTHING RETURNING ${columnsOf(metadata)}`;
  return {
    name: `core.insert-transaction.${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
    text,
  };
}

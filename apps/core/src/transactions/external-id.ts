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

/** An INSERT for one set of columns, and those columns in its parameters' order. */
interface InsertPlan {
  columns: ColumnMetadata[];
  statement: PreparedStatement;
}

/** The INSERT plans built so far, by the properties they write (and whether expiry is set). */
const insertPlans = new Map<string, InsertPlan>();

/**
 * Inserts a new transaction unless its externalId was taken meanwhile (then throws
 * ExternalIdTaken, rolling back the caller), and returns it as stored, the database's defaults
 * and clock included. `expiresInSeconds` sets `expires_at` from the database's clock, which is
 * the one the expiry worker compares with.
 *
 * A prepared statement per set of columns written (a payin's, a payout's): built by TypeORM's
 * query builder, the 40-column INSERT cost the core more CPU than PostgreSQL spent running it,
 * and PostgreSQL planned it again on every call (docs/benchmarks.md). The columns are looked up
 * in the entity's metadata once per set, not on every insert.
 */
export async function insertTransaction(
  manager: EntityManager,
  values: NewTransaction,
  expiresInSeconds?: number,
): Promise<Transaction> {
  const properties = Object.keys(values).filter(
    (property) => values[property as keyof NewTransaction] !== undefined,
  );
  const withExpiry = expiresInSeconds !== undefined;
  const key = `${properties.join()}|${withExpiry}`;
  let plan = insertPlans.get(key);
  if (!plan) {
    plan = insertPlan(manager.connection.getMetadata(Transaction), properties, withExpiry);
    insertPlans.set(key, plan);
  }
  const driver = manager.connection.driver;
  const parameters: unknown[] = plan.columns.map((column) =>
    driver.preparePersistentValue(column.getEntityValue(values), column),
  );
  if (withExpiry) parameters.push(expiresInSeconds);
  const [row] = await queryPreparedIn<Record<string, unknown>>(manager, plan.statement, parameters);
  if (!row) throw new ExternalIdTaken();
  return hydrate(manager, Transaction, row);
}

function insertPlan(
  metadata: EntityMetadata,
  properties: string[],
  withExpiry: boolean,
): InsertPlan {
  const columns = properties.map((property) => {
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`transactions has no column for ${property}`);
    return column;
  });
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
    columns,
    statement: {
      name: `core.insert-transaction.${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
      text,
    },
  };
}

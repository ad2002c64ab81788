import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { PreparedStatement } from '@app/database';

/**
 * Runs a statement and returns its rows. TypeORM's postgres driver answers UPDATE and DELETE
 * with `[rows, rowCount]` but SELECT and INSERT with the rows alone; callers want the rows.
 */
export async function queryRows<T>(
  manager: EntityManager,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const result: unknown = await manager.query(sql, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/**
 * An entity from a raw row (`RETURNING *`, `SELECT t.*`), typed the way TypeORM's own find
 * would give it (numerics as strings, timestamps as Dates): saves the round trip of reading a
 * row back after writing it.
 */
export function hydrate<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  row: Record<string, unknown>,
): T {
  const metadata = manager.connection.getMetadata(target);
  const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
  for (const column of metadata.columns) {
    if (column.isVirtual) continue;
    const value = row[column.databaseName];
    if (value === undefined) continue;
    column.setEntityValue(entity, manager.connection.driver.prepareHydratedValue(value, column));
  }
  return entity;
}

/**
 * A prepared statement over `target`'s rows whose text is built on first use, when the entity's
 * metadata is at hand: `text` gets `columns(alias)`, every stored column of the entity by name.
 * A prepared statement must not say `*`: once a migration adds a column under a running process,
 * PostgreSQL refuses to run it again ("cached plan must not change result type").
 */
export function entityStatement<T extends ObjectLiteral>(
  name: string,
  target: EntityTarget<T>,
  text: (columns: (alias: string) => string) => string,
): (manager: EntityManager) => PreparedStatement {
  let statement: PreparedStatement | undefined;
  return (manager) =>
    (statement ??= {
      name,
      text: text((alias) => columnsOf(manager.connection.getMetadata(target), alias)),
    });
}

/** Every stored column of an entity by name, for a statement's select or RETURNING list. */
export function columnsOf(metadata: EntityMetadata, alias?: string): string {
  const prefix = alias ? `${alias}.` : '';
  return metadata.columns
    .filter((column) => !column.isVirtual)
    .map((column) => `${prefix}"${column.databaseName}"`)
    .join(', ');
}

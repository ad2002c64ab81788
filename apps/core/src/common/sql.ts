import { EntityManager } from 'typeorm';

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

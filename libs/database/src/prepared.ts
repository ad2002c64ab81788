import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * A hot read PostgreSQL parses and plans once per connection and from then on only executes.
 * The name must be unique to its text across the process: `pg` refuses a name reused with other
 * text on the same connection.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * Runs `statement` on the data source's pool as a named prepared statement. Rows come back as
 * `DataSource.query` returns them (the driver's rows, typed by `pg`), without TypeORM's query
 * runner around the call. For reads outside a transaction: a transaction's statements belong on
 * its EntityManager.
 *
 * An unnamed statement is planned on every call: for a balance page that planning cost
 * PostgreSQL more than the execution (docs/benchmarks.md).
 */
export async function queryPrepared<Row>(
  dataSource: DataSource,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  // TypeORM's driver keeps its pg Pool as `master`.
  return run<Row>((dataSource.driver as PostgresDriver).master as Pool, statement, values);
}

/**
 * `queryPrepared` on `manager`'s own connection: inside `manager.transaction(...)`, on the
 * transaction's connection, so the statement sees and takes part in that transaction; on a
 * manager without a query runner, on the pool. The hot statements of a create run this way:
 * sent unnamed, PostgreSQL parsed and planned each of them on every call, which was about half
 * of its time per create (docs/benchmarks.md).
 */
export async function queryPreparedIn<Row>(
  manager: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  const runner = manager.queryRunner;
  if (!runner) return queryPrepared<Row>(manager.connection, statement, values);
  // A query runner's connection is a client of that pool.
  return run<Row>((await runner.connect()) as PoolClient, statement, values);
}

async function run<Row>(
  target: Pool | PoolClient,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  const { rows } = await target.query<QueryResultRow>({
    name: statement.name,
    text: statement.text,
    values,
  });
  return rows as Row[];
}

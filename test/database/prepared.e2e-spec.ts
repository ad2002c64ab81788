import { createDataSource, queryPrepared, type PreparedStatement } from '@app/database';
import type { DataSource } from 'typeorm';

/** queryPrepared: the rows DataSource.query gives, from a statement PostgreSQL keeps prepared. */
describe('database: prepared statements', () => {
  let dataSource: DataSource;
  // One connection, so every call below meets the same server session.
  beforeAll(async () => {
    dataSource = createDataSource(process.env.DATABASE_URL!, 1, 'test-prepared');
    await dataSource.initialize();
  });
  afterAll(() => dataSource.destroy());

  const statement: PreparedStatement = {
    name: 'test.prepared.numbers.v1',
    text: `SELECT n, n::text AS label, now() AS at FROM generate_series(1, $1::int) AS n ORDER BY n`,
  };

  it('answers rows typed as DataSource.query types them', async () => {
    const prepared = await queryPrepared<{ n: number; label: string; at: Date }>(
      dataSource,
      statement,
      [3],
    );
    const plain = await dataSource.query(statement.text, [3]);
    expect(prepared.map(({ n, label }) => ({ n, label }))).toEqual([
      { n: 1, label: '1' },
      { n: 2, label: '2' },
      { n: 3, label: '3' },
    ]);
    expect(prepared.map(({ n, label }) => ({ n, label }))).toEqual(
      (plain as typeof prepared).map(({ n, label }) => ({ n, label })),
    );
    expect(prepared[0].at).toBeInstanceOf(Date);
  });

  it('is prepared once on the connection and reused with other values', async () => {
    await queryPrepared(dataSource, statement, [1]);
    await queryPrepared(dataSource, statement, [5]);
    const kept = await dataSource.query(
      `SELECT name, statement FROM pg_prepared_statements WHERE name = $1`,
      [statement.name],
    );
    expect(kept).toEqual([{ name: statement.name, statement: statement.text }]);
    expect(await queryPrepared(dataSource, statement, [2])).toHaveLength(2);
  });
});

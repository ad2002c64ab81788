import { DataSource } from 'typeorm';

/**
 * What the services' database connections were doing while a profile ran: sampled from
 * pg_stat_activity ten times a second. A CPU profile shows a process that waits as idle; these
 * samples say what it waited for (a lock, the WAL flush, or the service itself between the
 * statements of an open transaction), and the table statistics show sequential scans.
 */
export interface DbActivity {
  samples: number;
  /** Per application (the services' pool names): share of connection-samples in each state. */
  states: Array<{ application: string; state: string; share: number }>;
  /** Tables read by sequential scan during the window, with the rows those scans read. */
  sequentialScans: Array<{ table: string; scans: number; rowsRead: number }>;
  /** Committed transactions per second during the window. */
  commitsPerSecond: number;
}

interface ActivityRow {
  application: string;
  state: string;
  count: number;
}

interface TableRow {
  relname: string;
  seq_scan: string;
  seq_tup_read: string;
}

export class DbActivitySampler {
  private readonly counts = new Map<string, number>();
  private samples = 0;
  private timer?: NodeJS.Timeout;
  private sampling?: Promise<void>;
  private startedAt = 0;
  private tablesBefore = new Map<string, TableRow>();
  private commitsBefore = 0;

  private constructor(private readonly db: DataSource) {}

  static async start(url: string): Promise<DbActivitySampler> {
    const db = new DataSource({
      type: 'postgres',
      url,
      applicationName: 'bench-sampler',
      extra: { max: 1 },
    });
    await db.initialize();
    const sampler = new DbActivitySampler(db);
    sampler.tablesBefore = await sampler.tables();
    sampler.commitsBefore = await sampler.commits();
    sampler.startedAt = Date.now();
    sampler.timer = setInterval(() => {
      // One sample at a time: a slow sample skips the next tick rather than piling up.
      sampler.sampling ??= sampler.sample().finally(() => (sampler.sampling = undefined));
    }, 100);
    return sampler;
  }

  async stop(): Promise<DbActivity> {
    clearInterval(this.timer);
    await this.sampling;
    const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
    // Statistics reach the views when a backend reports them; a fresh snapshot makes them current.
    await this.db.query('SELECT pg_stat_clear_snapshot()');
    const tablesAfter = await this.tables();
    const commits = (await this.commits()) - this.commitsBefore;
    await this.db.destroy();

    const totals = new Map<string, number>();
    for (const [key, count] of this.counts) {
      const application = key.split('\u0000')[0];
      totals.set(application, (totals.get(application) ?? 0) + count);
    }
    const states = [...this.counts.entries()]
      .map(([key, count]) => {
        const [application, state] = key.split('\u0000');
        return { application, state, share: count / totals.get(application)! };
      })
      .sort((a, b) => a.application.localeCompare(b.application) || b.share - a.share);
    const sequentialScans = [...tablesAfter.values()]
      .map((row) => {
        const before = this.tablesBefore.get(row.relname);
        return {
          table: row.relname,
          scans: Number(row.seq_scan) - Number(before?.seq_scan ?? 0),
          rowsRead: Number(row.seq_tup_read) - Number(before?.seq_tup_read ?? 0),
        };
      })
      .filter((row) => row.scans > 0)
      .sort((a, b) => b.rowsRead - a.rowsRead);
    return { samples: this.samples, states, sequentialScans, commitsPerSecond: commits / seconds };
  }

  private async sample(): Promise<void> {
    const rows = (await this.db.query(
      `SELECT application_name AS application,
              CASE WHEN state = 'active' AND wait_event IS NOT NULL THEN 'active, waiting on ' || wait_event_type || ':' || wait_event
                   WHEN state = 'active' THEN 'active, running'
                   ELSE coalesce(state, 'unknown') END AS state,
              count(*)::int AS count
         FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = current_database()
          AND application_name NOT LIKE 'bench%'
        GROUP BY 1, 2`,
    )) as ActivityRow[];
    this.samples += 1;
    for (const row of rows) {
      const key = `${row.application}\u0000${row.state}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + row.count);
    }
  }

  private async tables(): Promise<Map<string, TableRow>> {
    const rows = (await this.db.query(
      'SELECT relname, seq_scan::text, seq_tup_read::text FROM pg_stat_user_tables',
    )) as TableRow[];
    return new Map(rows.map((row) => [row.relname, row]));
  }

  private async commits(): Promise<number> {
    const [row] = (await this.db.query(
      'SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()',
    )) as Array<{ commits: string }>;
    return Number(row.commits);
  }
}

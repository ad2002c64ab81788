import 'reflect-metadata';
import { loadConfigOrExit } from '@app/config';
import { createDataSource, runMigrations } from '@app/database';

/** `npm run migration:run`: applies pending migrations to DATABASE_URL, one line per migration. */
async function main(): Promise<void> {
  const config = loadConfigOrExit({ requireDatabase: true });
  const dataSource = createDataSource(config.database.url!, 2, 'migrate');
  await dataSource.initialize();
  await runMigrations(dataSource, (line) => process.stdout.write(`${line}\n`));
  await dataSource.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { createDataSource } from './libs/database/src/data-source';

// The DataSource the TypeORM CLI uses: `npm run migration:generate -- libs/database/src/migrations/<Name>`.
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL must be set for the migration CLI');

export default createDataSource(url);

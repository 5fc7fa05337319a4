/**
 * Prisma CLI configuration for the SQLite schema. The JS schema engine (WebAssembly, through the
 * driver adapter) is used because the native engine cannot be downloaded offline. Only `generate`
 * and `migrate diff` are run through the CLI; migrations are applied by scripts/db-migrate.mjs.
 */
import path from 'node:path';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(import.meta.dirname, 'schema.prisma'),
  migrations: { path: path.join(import.meta.dirname, 'migrations') },
  async adapter() {
    return new PrismaBetterSQLite3({ url: ':memory:' });
  },
});

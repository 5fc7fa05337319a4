/**
 * Prisma CLI configuration for the PostgreSQL schema (JS schema engine; see prisma/sqlite). The CLI
 * is used for `generate` and schema-to-schema `migrate diff` only, which need no database: the
 * committed SQL is applied by scripts/db-migrate.mjs, avoiding prisma/orm#27403 in `migrate deploy`.
 */
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(import.meta.dirname, 'schema.prisma'),
  migrations: { path: path.join(import.meta.dirname, 'migrations') },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' });
  },
});

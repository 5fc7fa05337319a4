/**
 * Throw-away databases for data-layer tests: a temp SQLite file, and a randomly named PostgreSQL
 * database on 127.0.0.1:5432 that is dropped afterwards. Both are migrated with the committed
 * migrations through scripts/db-migrate.mjs, exactly as `npm start` does.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../../scripts/db-migrate.mjs';
import { openDatabase, type Database } from '../core';

/** Server URL (without database) for PostgreSQL tests; override with STOCKROOM_TEST_PG. */
const PG_SERVER = process.env.STOCKROOM_TEST_PG ?? 'postgresql://postgres@127.0.0.1:5432';

export interface TestDatabase {
  db: Database;
  url: string;
  drop(): Promise<void>;
}

export interface TestProvider {
  name: 'sqlite' | 'postgres';
  /** Why the provider is skipped, or null when it is available. */
  skipReason: string | null;
  create(): Promise<TestDatabase>;
}

async function pgAdmin<T>(fn: (client: pg.Client) => Promise<T>, server = PG_SERVER): Promise<T> {
  const client = new pg.Client({ connectionString: `${server}/postgres`, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database URL for a provider, and how to remove it. `pgServer`: another PostgreSQL
 * server than the shared one (a fault test's own cluster, pg-cluster.ts).
 */
export async function createTestDatabaseUrl(name: 'sqlite' | 'postgres', pgServer = PG_SERVER): Promise<{ url: string; drop(): Promise<void> }> {
  if (name === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-db-'));
    return { url: `file:${path.join(dir, 'test.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const dbName = `stockroom_test_${randomBytes(6).toString('hex')}`;
  await pgAdmin((c) => c.query(`CREATE DATABASE "${dbName}"`), pgServer);
  return {
    url: `${pgServer}/${dbName}`,
    drop: () => pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`), pgServer).then(() => undefined),
  };
}

async function create(name: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const { url, drop } = await createTestDatabaseUrl(name);
  await migrate({ url });
  const db = openDatabase(url);
  return {
    db,
    url,
    drop: async () => {
      await db.close();
      await drop();
    },
  };
}

/** SQLite always; PostgreSQL when a server answers (CI has one). */
export async function testProviders(): Promise<TestProvider[]> {
  let pgSkip: string | null = null;
  try {
    await pgAdmin((c) => c.query('SELECT 1'));
  } catch (err) {
    pgSkip = `PostgreSQL at ${PG_SERVER} is unreachable (${err instanceof Error ? err.message : String(err)})`;
    console.warn(`lib/db tests: skipping PostgreSQL: ${pgSkip}`);
  }
  return [
    { name: 'sqlite', skipReason: null, create: () => create('sqlite') },
    { name: 'postgres', skipReason: pgSkip, create: () => create('postgres') },
  ];
}

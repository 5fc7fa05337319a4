#!/usr/bin/env node
/**
 * Applies the committed SQL migrations (prisma/<provider>/migrations/<name>/migration.sql) in name
 * order, recording each in `_stockroom_migrations`. Used by `npm start`, tests and CI instead of
 * `prisma migrate deploy`, which fails on PostgreSQL with the JS schema engine (prisma/orm#27403);
 * the same runner serves SQLite so both providers behave alike.
 *
 *   node scripts/db-migrate.mjs            # DATABASE_URL, or .data/stockroom.db
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, resolveDatabaseUrl } from './db-url.mjs';

const TABLE = '_stockroom_migrations';
/** Arbitrary constant key for pg_advisory_lock, so concurrent starts migrate one at a time. */
const PG_LOCK_KEY = 727_001;

/**
 * The committed migrations of a provider, in the order they apply.
 * @param {'sqlite' | 'postgres'} provider
 */
export function listMigrations(provider) {
  const dir = path.join(REPO_ROOT, 'prisma', provider, 'migrations');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

function checkApplied(applied, migrations) {
  const known = new Map(migrations.map((m) => [m.name, m.checksum]));
  for (const row of applied) {
    const checksum = known.get(row.name);
    if (checksum === undefined) throw new Error(`database has migration ${row.name}, which this checkout does not have`);
    if (checksum !== row.checksum) throw new Error(`migration ${row.name} was edited after it was applied (checksum differs)`);
  }
}

async function migrateSqlite(file, migrations) {
  const { default: Database } = await import('better-sqlite3');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.exec(`CREATE TABLE IF NOT EXISTS "${TABLE}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`);
    const applied = [];
    for (const m of migrations) {
      // IMMEDIATE takes the write lock before reading, so two starting processes cannot both apply m.
      db.exec('BEGIN IMMEDIATE');
      try {
        const rows = db.prepare(`SELECT "name", "checksum" FROM "${TABLE}"`).all();
        checkApplied(rows, migrations);
        if (!rows.some((r) => r.name === m.name)) {
          db.exec(m.sql);
          db.prepare(`INSERT INTO "${TABLE}" VALUES (?, ?, ?)`).run(m.name, m.checksum, new Date().toISOString());
          applied.push(m.name);
        }
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    }
    return applied;
  } finally {
    db.close();
  }
}

async function migratePostgres(url, migrations) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PG_LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${TABLE}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query(`SELECT "name", "checksum" FROM "${TABLE}"`);
    checkApplied(rows, migrations);
    const done = new Set(rows.map((r) => r.name));
    const applied = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await client.query('BEGIN');
      try {
        // A parameterless query may hold many statements (simple query protocol).
        await client.query(m.sql);
        await client.query(`INSERT INTO "${TABLE}" ("name", "checksum") VALUES ($1, $2)`, [m.name, m.checksum]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      applied.push(m.name);
    }
    await client.query('SELECT pg_advisory_unlock($1)', [PG_LOCK_KEY]);
    return applied;
  } finally {
    await client.end();
  }
}

/**
 * Brings the database named by `url` (default: DATABASE_URL, else .data/stockroom.db) up to date.
 * @param {{ url?: string }} [options]
 * @returns {Promise<{ provider: 'sqlite' | 'postgres', applied: string[] }>}
 */
export async function migrate(options = {}) {
  const target = resolveDatabaseUrl(options.url ?? process.env.DATABASE_URL);
  const migrations = listMigrations(target.provider);
  const applied =
    target.provider === 'sqlite' ? await migrateSqlite(target.file, migrations) : await migratePostgres(target.url, migrations);
  return { provider: target.provider, applied };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  migrate().then(
    ({ provider, applied }) => console.log(`db: ${provider} up to date (${applied.length ? `applied ${applied.join(', ')}` : 'nothing to apply'})`),
    (err) => {
      console.error(`db: migration failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}

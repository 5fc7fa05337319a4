/**
 * Migration 0030 (issue 35) keeps old suites readable: case rows stored before epochs existed read as
 * epoch 0, and a second epoch of the same case can be stored beside them. On SQLite (whose primary key
 * change rebuilds the table) and on PostgreSQL (which swaps the primary key constraint in place).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from '../../../scripts/db-migrate.mjs';
import { openDatabase } from './client';
import { getSuiteCases, getSuiteRunOrThrow } from '../suites/suites';
import { storedCaseKeys, caseEpochKey } from '../suites/suite-jobs';
import { createTestDatabaseUrl, testProviders } from '../testing/test-databases';

/** better-sqlite3 ships no types; the few calls this test makes. */
interface RawDb {
  exec(sql: string): void;
  prepare(sql: string): { run(...values: unknown[]): unknown };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => RawDb;

const EPOCH_MIGRATION = '0030_suite_case_epoch';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-epoch-migration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const OLD_SUITE = `INSERT INTO "SuiteRun" ("id", "kind", "status", "total", "config", "datasetName", "datasetHash", "updatedAt") VALUES ('old', 'eval', 'done', 1, '{}', 'stockroom', 'h', CURRENT_TIMESTAMP)`;
const OLD_CASE = `INSERT INTO "SuiteCase" ("suiteRunId", "setting", "caseId", "category", "scores") VALUES ('old', 'none', 'S001', 'lookup', '{"toolSelection":1}')`;

/** The migrations before 0030 of a provider. */
function migrationsBefore(provider: 'sqlite' | 'postgres') {
  return listMigrations(provider).filter((m) => m.name < EPOCH_MIGRATION);
}

/** 0030 and every migration after it: what migrating the old database applies. */
const fromEpoch = (provider: 'sqlite' | 'postgres') => listMigrations(provider).filter((m) => m.name >= EPOCH_MIGRATION).map((m) => m.name);

/** A database as it stood before the migration, with an old suite and its case in it; returns its URL and how to drop it. */
const oldDatabase: Record<'sqlite' | 'postgres', () => Promise<{ url: string; drop(): Promise<void> }>> = {
  sqlite: async () => {
    const file = path.join(dir, 'old.db');
    const raw = new Database(file);
    raw.exec('CREATE TABLE "_stockroom_migrations" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)');
    for (const m of migrationsBefore('sqlite')) {
      raw.exec(m.sql);
      raw.prepare('INSERT INTO "_stockroom_migrations" VALUES (?, ?, ?)').run(m.name, m.checksum, new Date().toISOString());
    }
    raw.prepare(OLD_SUITE).run();
    raw.prepare(OLD_CASE).run();
    raw.close();
    return { url: `file:${file}`, drop: async () => undefined };
  },
  postgres: async () => {
    const made = await createTestDatabaseUrl('postgres');
    const client = new pg.Client({ connectionString: made.url });
    await client.connect();
    try {
      // The migration runner's own table, as it creates it (scripts/db-migrate.mjs).
      await client.query('CREATE TABLE "_stockroom_migrations" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now())');
      for (const m of migrationsBefore('postgres')) {
        await client.query(m.sql);
        await client.query('INSERT INTO "_stockroom_migrations" ("name", "checksum") VALUES ($1, $2)', [m.name, m.checksum]);
      }
      await client.query(OLD_SUITE);
      await client.query(OLD_CASE);
    } finally {
      await client.end();
    }
    return made;
  },
};

const providers = await testProviders();

describe.each(providers)('migration 0030 (suite case epochs) on $name', (provider) => {
  it.skipIf(provider.skipReason !== null)('reads a suite stored before it as epoch 0, and stores a second epoch of the same case after it', async () => {
    const { url, drop } = await oldDatabase[provider.name]();
    try {
      const applied = (await migrate({ url })).applied;
      expect(applied[0]).toBe(EPOCH_MIGRATION);
      expect(applied).toEqual(fromEpoch(provider.name));
      const db = openDatabase(url);
      try {
        expect(await getSuiteCases('old', undefined, db)).toEqual([{ setting: 'none', caseId: 'S001', epoch: 0, category: 'lookup', runId: null, scores: { toolSelection: 1 } }]);
        expect(await storedCaseKeys('old', db)).toEqual(new Set([caseEpochKey('none', 'S001', 0)]));
        // The old suite (no job) reads as one epoch per case.
        expect((await getSuiteRunOrThrow('old', db)).epochs).toBe(1);
        await db.prisma.suiteCase.create({ data: { suiteRunId: 'old', setting: 'none', caseId: 'S001', epoch: 1, scores: '{}' } });
        expect(await storedCaseKeys('old', db)).toEqual(new Set([caseEpochKey('none', 'S001', 0), caseEpochKey('none', 'S001', 1)]));
        expect((await getSuiteRunOrThrow('old', db)).epochs).toBe(2);
        // The same epoch twice is still refused.
        await expect(db.prisma.suiteCase.create({ data: { suiteRunId: 'old', setting: 'none', caseId: 'S001', epoch: 1, scores: '{}' } })).rejects.toThrow();
      } finally {
        await db.close();
      }
    } finally {
      await drop();
    }
  });
});

/**
 * Migration 0030 (issue 35) keeps old suites readable: case rows stored before epochs existed read as
 * epoch 0, and a second epoch of the same case can be stored beside them (SQLite, whose primary key
 * change rebuilds the table).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from '../../scripts/db-migrate.mjs';
import { openDatabase } from './client';
import { getSuiteCases } from './suites';
import { storedCaseKeys, caseEpochKey } from './suite-jobs';

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

describe('migration 0030 (suite case epochs)', () => {
  it('reads a suite stored before it as epoch 0, and stores a second epoch of the same case after it', async () => {
    const file = path.join(dir, 'old.db');
    const before = listMigrations('sqlite').filter((m) => m.name < EPOCH_MIGRATION);
    expect(before.length).toBe(listMigrations('sqlite').length - 1);
    // The database as it stood before the migration, with a suite case in it.
    const raw = new Database(file);
    raw.exec('CREATE TABLE "_stockroom_migrations" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)');
    for (const m of before) {
      raw.exec(m.sql);
      raw.prepare('INSERT INTO "_stockroom_migrations" VALUES (?, ?, ?)').run(m.name, m.checksum, new Date().toISOString());
    }
    raw.prepare(`INSERT INTO "SuiteRun" ("id", "kind", "status", "total", "config", "datasetName", "datasetHash", "updatedAt") VALUES ('old', 'eval', 'done', 1, '{}', 'stockroom', 'h', CURRENT_TIMESTAMP)`).run();
    raw.prepare(`INSERT INTO "SuiteCase" ("suiteRunId", "setting", "caseId", "category", "scores") VALUES ('old', 'none', 'S001', 'lookup', '{"toolSelection":1}')`).run();
    raw.close();

    expect((await migrate({ url: `file:${file}` })).applied).toEqual([EPOCH_MIGRATION]);
    const db = openDatabase(`file:${file}`);
    try {
      expect(await getSuiteCases('old', undefined, db)).toEqual([{ setting: 'none', caseId: 'S001', category: 'lookup', runId: null, scores: { toolSelection: 1 } }]);
      expect(await storedCaseKeys('old', db)).toEqual(new Set([caseEpochKey('none', 'S001', 0)]));
      await db.prisma.suiteCase.create({ data: { suiteRunId: 'old', setting: 'none', caseId: 'S001', epoch: 1, scores: '{}' } });
      expect(await storedCaseKeys('old', db)).toEqual(new Set([caseEpochKey('none', 'S001', 0), caseEpochKey('none', 'S001', 1)]));
      // The same epoch twice is still refused.
      await expect(db.prisma.suiteCase.create({ data: { suiteRunId: 'old', setting: 'none', caseId: 'S001', epoch: 1, scores: '{}' } })).rejects.toThrow();
    } finally {
      await db.close();
    }
  });
});

/**
 * `eval --golden-set NAME[@VERSION]` runs a golden set stored in the dashboard's database as it runs
 * the bundled file: the report names the set's version and counts its cases, so the gate checks it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { importGoldenSet } from '../lib/db/review/golden-sets';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { migrate } from '../scripts/db-migrate.mjs';
import { tenantOfDatasetDir } from './save';
import { runInProcess } from './testing/in-process';

const ROOT = path.resolve(import.meta.dirname, '..');
const bundled = fs.readFileSync(path.join(ROOT, 'data/golden/stockroom_golden_own_v1.jsonl'), 'utf8').split('\n').filter(Boolean);

describe('eval --golden-set', () => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  const tenant = tenantOfDatasetDir(path.join(ROOT, 'data'));
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('sqlite'));
    await migrate({ url });
    db = openDatabase(url);
    await importGoldenSet(tenant, 'smoke', `${bundled.slice(0, 2).join('\n')}\n`, null, db);
    await importGoldenSet(tenant, 'smoke', `${bundled.slice(0, 3).join('\n')}\n`, null, db);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('runs the newest version, or the one named, and the report records which', async () => {
    const newest = await runInProcess('eval', ['--golden-set', 'smoke', '--json'], { DATABASE_URL: url });
    expect(newest.code).toBe(0);
    expect(JSON.parse(newest.stdout).golden).toMatchObject({ file: `golden-set://${tenant}/smoke@2`, cases: 3 });
    const first = await runInProcess('eval', ['--golden-set', 'smoke@1', '--json'], { DATABASE_URL: url });
    expect(JSON.parse(first.stdout).golden).toMatchObject({ file: `golden-set://${tenant}/smoke@1`, cases: 2 });
  });

  it('refuses a set the tenant does not have, and --golden with --golden-set, naming the flags', async () => {
    expect(await runInProcess('eval', ['--golden-set', 'nope'], { DATABASE_URL: url })).toMatchObject({ code: 2, stderr: expect.stringContaining('--golden-set') });
    expect(await runInProcess('eval', ['--golden-set', 'smoke', '--golden', 'x.jsonl'], { DATABASE_URL: url })).toMatchObject({ code: 2, stderr: expect.stringContaining('--golden') });
  });
});

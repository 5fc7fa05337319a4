/**
 * Ctrl-C while `matrix --queue` follows a suite on PostgreSQL (issue 23). Observed: Ctrl-C printed
 * "cancelling suite" but the process exited before the cancel was stored (a terminal's Ctrl-C
 * reaches node twice: directly and relayed by the tsx wrapper), so the suite stayed queued and the
 * workers ran all of it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl, testProviders } from '../lib/db/testing/test-databases';
import { bundledDataset, goldenSubset } from '../lib/jobs/testing/suite-fixtures';
import { migrate } from '../scripts/db-migrate.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;

describe.skipIf(pgSkip !== null)('Ctrl-C while matrix --queue follows a suite on PostgreSQL', { timeout: 120_000 }, () => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  let tmp: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-queue-cancel-'));
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    db = openDatabase(url);
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'ci@kittiwake.test', password: 'correct horse battery staple', roles: ['operator'], tenant: 'kittiwake' });
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('Ctrl-C to `npm run stockroom -- matrix --queue`: the cancel is stored before the command exits, and the suite is cancelled', async () => {
    const golden = goldenSubset(bundledDataset(), 4, tmp).path;
    const child = spawn('npm', ['run', '--silent', 'stockroom', '--', 'matrix', '--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test', '--queue', '--golden', golden], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Following: no worker runs, so the suite waits queued and the command says so.
    await vi.waitFor(() => expect(stderr).toContain('No worker is running'), { timeout: 60_000, interval: 50 });
    child.kill('SIGINT'); // npm alone: it forwards the signal to what it started
    expect(await exited).toBe(130);
    expect(stderr).toContain('cancelling suite');
    const suites = await db.prisma.suiteRun.findMany({ select: { status: true } });
    expect(suites).toEqual([{ status: 'cancelled' }]);
  });
});

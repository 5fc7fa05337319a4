/**
 * Issue 32, SQLite (the embedded default): a full disk (a small tmpfs this test mounts) or a file
 * locked by another process gives a clear error in an action and in the CLI, writes nothing
 * half-way, and everything works again by itself once space is freed or the lock is let go.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqliteDirect } from '../db/core/sqlite-direct';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const ROOT = path.resolve(import.meta.dirname, '../..');
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-fulldisk-'));
/** Mounts an 8 MB tmpfs (we need root); the reason it cannot, or null. */
function mountSmallDisk(): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `cannot mount a tmpfs (${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}): the full-disk case needs root`;
  }
}
const skip = mountSmallDisk();
if (skip) console.warn(`sqlite-faults.test: skipped: ${skip}`);

const DISK_FULL = 'The database’s disk is full, so nothing can be saved; it works again once space is freed.';
const LOCKED = 'The database file is locked by another process; try again in a moment.';

let env: ActionEnv;
let file: string;
const filler = () => path.join(mountPoint, 'filler');

function fillDisk(): void {
  const fd = fs.openSync(filler(), 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** `npm run stockroom -- user create …` as a separate process, on this test's database. */
function cliCreateUser(email: string) {
  const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'cli/stockroom.ts', 'user', 'create', '--email', email, '--password', 'correct horse battery staple', '--role', 'viewer'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: env.url },
    timeout: 120_000,
  });
  return { code: r.status, stderr: r.stderr };
}

describe.skipIf(skip)('SQLite on a full disk or a locked file', () => {
  let runId: string;
  beforeAll(async () => {
    env = await setUpActionEnv({ sqliteDir: mountPoint });
    file = env.url.replace(/^file:/, '');
    const { runOneAction } = await import('./run-one');
    env.as('operator');
    const run = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!run.ok) throw new Error(run.error);
    runId = run.data.runId;
  }, 120_000);
  afterAll(async () => {
    fs.rmSync(filler(), { force: true });
    await env?.cleanup();
    if (!skip) execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  const counts = async () => {
    const { getDb } = await import('../db/core/client');
    const prisma = getDb().prisma;
    return { runs: await prisma.run.count(), labels: await prisma.runLabel.count(), users: await prisma.user.count() };
  };

  it('refuses an action and the CLI with "the disk is full", writes nothing, and works again once space is freed', async () => {
    const { addLabelAction } = await import('./add-label');
    const { runOneAction } = await import('./run-one');
    const before = await counts();
    fillDisk();

    env.as('reviewer');
    expect(await addLabelAction({ runId, verdict: 'pass' })).toEqual({ ok: false, code: 'db_unavailable', error: DISK_FULL });
    env.as('operator');
    // A whole run (its steps, calls and events) is stored in one transaction: none of it stays.
    expect(await runOneAction({ datasetId: 'bundled', caseId: 'S002' })).toEqual({ ok: false, code: 'db_unavailable', error: DISK_FULL });
    const cli = cliCreateUser('full@example.test');
    expect(cli.code).toBe(75);
    expect(cli.stderr).toContain(`stockroom user: ${DISK_FULL} Nothing was written half-way`);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
    expect(await counts()).toEqual(before);

    fs.rmSync(filler());
    expect(await runOneAction({ datasetId: 'bundled', caseId: 'S002' })).toMatchObject({ ok: true });
    expect(cliCreateUser('full@example.test').code).toBe(0);
    env.as('reviewer');
    expect(await addLabelAction({ runId, verdict: 'pass' })).toMatchObject({ ok: true });
    expect(await counts()).toEqual({ runs: before.runs + 1, labels: before.labels + 1, users: before.users + 1 });
  }, 300_000);

  it('refuses an action and the CLI with "the file is locked" while another process holds it, and works once it lets go', async () => {
    const { addLabelAction } = await import('./add-label');
    const before = await counts();
    const other = openSqliteDirect(file);
    other.prepare('BEGIN EXCLUSIVE').run();
    try {
      env.as('reviewer');
      expect(await addLabelAction({ runId, verdict: 'fail' })).toEqual({ ok: false, code: 'db_unavailable', error: LOCKED });
      const cli = cliCreateUser('locked@example.test');
      expect(cli.code).toBe(75);
      expect(cli.stderr).toContain(`stockroom user: ${LOCKED}`);
    } finally {
      other.prepare('COMMIT').run();
      other.close();
    }
    expect(await counts()).toEqual(before);
    expect(await addLabelAction({ runId, verdict: 'fail' })).toMatchObject({ ok: true });
  }, 300_000);
});

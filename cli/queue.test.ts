/**
 * `eval|matrix --save --queue [--detach]` and `suite status|cancel`: the CLI enqueues on the job
 * queue and follows the stored progress (SQLite: this process runs the in-process queue), or
 * detaches with the suite id (PostgreSQL: a worker process runs it). Commands run in-process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../lib/db/core/client';
import { createTestDatabaseUrl, testProviders } from '../lib/db/testing/test-databases';
import { bundledDataset, goldenSubset } from '../lib/jobs/testing/suite-fixtures';
import { spawnWorker } from '../lib/jobs/testing/worker-processes';
import { migrate } from '../scripts/db-migrate.mjs';
import { runInProcess } from './testing/in-process';

const PASSWORD = 'correct horse battery staple';
const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;

const inProcess = (name: 'eval' | 'matrix' | 'suite', args: string[], env: Record<string, string>) => runInProcess(name, args, env);

describe.each([
  { name: 'sqlite' as const, skip: null },
  { name: 'postgres' as const, skip: pgSkip },
])('--queue on $name', { timeout: 300_000 }, ({ name, skip }) => {
  let db: Database;
  let url: string;
  let drop: () => Promise<void>;
  let tmp: string;
  let goldenPath: string;
  const save = ['--save', '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test'];

  beforeAll(async () => {
    if (skip) return;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-cli-queue-'));
    goldenPath = goldenSubset(bundledDataset(), 4, tmp).path;
    ({ url, drop } = await createTestDatabaseUrl(name));
    await migrate({ url });
    db = openDatabase(url);
    const { upsertUser } = await import('../lib/auth/users');
    await upsertUser(db, { email: 'ci@kittiwake.test', password: PASSWORD, roles: ['operator'], tenant: 'kittiwake' });
  });
  afterAll(async () => {
    if (skip) return;
    await db.close();
    await drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it.skipIf(skip !== null)('refuses --queue without --save and --detach without --queue, storing nothing', async () => {
    expect(await inProcess('matrix', ['--queue'], { DATABASE_URL: url })).toMatchObject({ code: 2, stderr: expect.stringContaining('--queue stores the suite') });
    expect(await inProcess('eval', ['--detach', ...save], { DATABASE_URL: url })).toMatchObject({ code: 2, stderr: expect.stringContaining('--detach only applies with --queue') });
    expect(await db.prisma.suiteRun.count()).toBe(0);
  });

  it.skipIf(skip !== null || name !== 'sqlite')('matrix --queue follows the suite to done in this process; --detach is refused on SQLite', async () => {
    const r = await inProcess('matrix', [...save, '--queue', '--json', '--golden', goldenPath], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { suiteId: string; status: string; total: number; stored: number };
    expect(out).toMatchObject({ status: 'done', total: 20, stored: 20 });
    expect(await db.prisma.run.count({ where: { suiteRunId: out.suiteId } })).toBe(20);
    const d = await inProcess('eval', [...save, '--queue', '--detach', '--golden', goldenPath], { DATABASE_URL: url });
    expect(d).toMatchObject({ code: 2, stderr: expect.stringContaining('--detach needs DATABASE_URL=postgres') });
  });

  it.skipIf(skip !== null || name !== 'sqlite')('matrix --queue --epochs 2 on fake-noisy stores every (setting, case) twice, by epoch, through the workers\' path', async () => {
    const r = await inProcess('matrix', [...save, '--queue', '--json', '--golden', goldenPath, '--model', 'fake-noisy', '--seed', '3', '--epochs', '2'], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { suiteId: string; status: string; total: number; stored: number };
    // 4 cases × 5 settings × 2 epochs.
    expect(out).toMatchObject({ status: 'done', total: 40, stored: 40 });
    const rows = await db.prisma.suiteCase.findMany({ where: { suiteRunId: out.suiteId }, select: { setting: true, caseId: true, epoch: true, runId: true } });
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((c) => c.epoch))).toEqual(new Set([0, 1]));
    const runs = await db.prisma.run.findMany({ where: { suiteRunId: out.suiteId }, select: { id: true, epoch: true } });
    expect(new Map(runs.map((x) => [x.id, x.epoch]))).toEqual(new Map(rows.map((c) => [c.runId, c.epoch])));
  });

  it.skipIf(skip !== null || name !== 'sqlite')('each queued epoch runs the noisy model\'s own stream: the stored case rows equal eval --epochs 2 in this process, case by case and epoch by epoch', async () => {
    const noisy = ['--golden', goldenPath, '--model', 'fake-noisy', '--temperature', '2', '--seed', '5', '--epochs', '2'];
    const local = JSON.parse((await inProcess('eval', [...noisy, '--json'], { DATABASE_URL: url })).stdout) as { cases: { id: string; epoch: number; scores: { toolNames: string[]; finalAnswer: string } }[] };
    const r = await inProcess('eval', [...save, '--queue', '--json', ...noisy], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const { suiteId } = JSON.parse(r.stdout) as { suiteId: string };
    const rows = await db.prisma.suiteCase.findMany({ where: { suiteRunId: suiteId }, select: { caseId: true, epoch: true, scores: true } });
    const stored = new Map(rows.map((c) => [`${c.caseId}/${c.epoch}`, JSON.parse(c.scores) as { toolNames: string[]; finalAnswer: string }]));
    expect(stored.size).toBe(local.cases.length);
    for (const c of local.cases) expect(stored.get(`${c.id}/${c.epoch}`), `${c.id} epoch ${c.epoch}`).toMatchObject({ toolNames: c.scores.toolNames, finalAnswer: c.scores.finalAnswer });
    // At temperature 2 some case strays differently in its two epochs (else the epochs would not be sampled apart).
    expect(local.cases.some((c) => c.epoch === 1 && stored.get(`${c.id}/0`)!.finalAnswer !== c.scores.finalAnswer)).toBe(true);
  });

  it.skipIf(skip !== null || name !== 'postgres')('eval --queue --detach returns the suite id; a worker process runs it; suite status reads the stored progress', async () => {
    const r = await inProcess('eval', [...save, '--queue', '--detach', '--json', '--golden', goldenPath], { DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    const { suiteId, total } = JSON.parse(r.stdout) as { suiteId: string; total: number };
    expect((await db.prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteId } })).status).toBe('queued');
    // Nothing takes it yet, and the CLI says so rather than leave the user waiting on a queue.
    expect(r.stderr).toContain('No worker is running');
    const before = JSON.parse((await inProcess('suite', ['status', suiteId, '--tenant', 'kittiwake', '--json'], { DATABASE_URL: url })).stdout) as { workers: unknown };
    expect(before.workers).toEqual({ backend: 'workers', online: 0, slots: 0 });
    const worker = await spawnWorker({ databaseUrl: url, concurrency: 2 });
    try {
      for (;;) {
        // The worker keeps storing while the command reads, so what it shows is bracketed by the stored
        // runs counted just before and just after (equal to both whenever nothing was stored between).
        const storedBefore = await db.prisma.run.count({ where: { suiteRunId: suiteId } });
        const s = await inProcess('suite', ['status', suiteId, '--tenant', 'kittiwake', '--json'], { DATABASE_URL: url });
        const storedAfter = await db.prisma.run.count({ where: { suiteRunId: suiteId } });
        const p = JSON.parse(s.stdout) as { status: string; stored: number; total: number; workers: { online: number; slots: number } };
        expect(p.stored).toBeGreaterThanOrEqual(storedBefore);
        expect(p.stored).toBeLessThanOrEqual(storedAfter);
        if (p.stored > 0) expect(p.workers).toMatchObject({ online: 1, slots: 2 }); // the worker that stored them beats
        if (p.status === 'done') break;
        expect(['queued', 'running']).toContain(p.status);
        await new Promise((res) => setTimeout(res, 300));
      }
    } finally {
      await worker.stop();
    }
    expect(await db.prisma.run.count({ where: { suiteRunId: suiteId } })).toBe(total);
    const c = await inProcess('suite', ['cancel', suiteId, '--tenant', 'kittiwake', '--as', 'ci@kittiwake.test'], { DATABASE_URL: url });
    expect(c).toMatchObject({ code: 1, stdout: expect.stringContaining('had already finished') });
    const other = await inProcess('suite', ['status', suiteId, '--tenant', 'puffin'], { DATABASE_URL: url });
    expect(other).toMatchObject({ code: 2, stderr: expect.stringContaining(`no suite ${suiteId} in tenant puffin`) });
  });
});

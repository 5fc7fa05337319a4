/**
 * The embedded SQLite default: the same job interface runs in the server's process, so `npm start`
 * alone does everything. Suites started from the dashboard's actions run here, each case stored
 * once; a restart enqueues unfinished suites again instead of failing them (issue 12: a restart
 * left suites queued or running forever); a cancel keeps a partial result marked cancelled.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '../actions/testing/action-env';
import { MATRIX_SETTINGS, runMatrix } from '../eval/matrix';
import { bundledDataset, goldenSubset } from './testing/suite-fixtures';
import { getDb } from '../db/core/client';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let dir: string;
beforeAll(async () => {
  env = await setUpActionEnv();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-inproc-'));
});
afterAll(async () => {
  await env?.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const mods = async () => ({
  ...(await import('../actions/start-matrix')),
  ...(await import('../actions/cancel-suite')),
  ...(await import('./queue')),
  ...(await import('./in-process')),
  ...(await import('./handlers')),
  ...(await import('./recover')),
  ...(await import('../runs/suites')),
  prisma: (await import('../db/core/client')).getDb().prisma,
});

/** Counts write transactions begun on the process database's SQLite case connection (savepoints inside one not counted). */
function countCommits() {
  const conn = getDb().direct!() as unknown as { transaction: (fn: () => unknown) => { (): unknown; immediate(): unknown } };
  const original = conn.transaction;
  const counter = { count: 0, restore: () => void (conn.transaction = original) };
  conn.transaction = (fn) => {
    const tx = original.call(conn, fn);
    return Object.assign(() => tx(), { immediate: () => (counter.count++, tx.immediate()) });
  };
  return counter;
}

const distinct = (rows: { setting: string; caseId: string | null }[]) => new Set(rows.map((r) => `${r.setting}/${r.caseId}`)).size;

describe('suites on the in-process queue (SQLite)', () => {
  it('a matrix started from the dashboard runs in this process, stores every case once, with the metrics the CLI matrix computes', async () => {
    const { startMatrixAction, getJobQueue, InProcessQueue, prisma } = await mods();
    const commits = countCommits();
    env.as('operator');
    const res = await startMatrixAction({ datasetId: 'bundled' });
    if (!res.ok) throw new Error(res.error);
    const queue = getJobQueue();
    expect(queue).toBeInstanceOf(InProcessQueue);
    await (queue as InstanceType<typeof InProcessQueue>).idle();
    commits.restore();
    const { suiteRunId, total } = res.data;
    // Issue 36, the first demo: the fake model's cases ran two at a time, each its own SQLite commit.
    // They take slots of their own and are stored many to a commit.
    expect(commits.count).toBeGreaterThan(0);
    expect(commits.count).toBeLessThanOrEqual(Math.ceil(total / 4));
    const suite = await prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId } });
    expect(suite.status).toBe('done');
    const rows = await prisma.run.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true } });
    expect(rows).toHaveLength(total);
    expect(distinct(rows)).toBe(total);

    const cli = await runMatrix({ dataset: bundledDataset() });
    for (const setting of MATRIX_SETTINGS) {
      const stored = await prisma.suiteSetting.findUniqueOrThrow({ where: { suiteRunId_setting: { suiteRunId, setting } } });
      const metrics = JSON.parse(stored.metrics) as Record<string, number | null>;
      for (const [name, value] of Object.entries(cli.reports[setting].metrics)) {
        if (typeof value === 'number') expect(metrics[name], `${setting} ${name}`).toBeCloseTo(value, 9);
        else expect(metrics[name], `${setting} ${name}`).toEqual(value);
      }
    }
  });

  it('a restart mid-suite: the unfinished suite is enqueued again and finishes, each case stored once', async () => {
    const { InProcessQueue, createHandlers, recoverUnfinishedSuites, queueSuite, runQueueOf, prisma } = await mods();
    const dataset = bundledDataset();
    const golden = goldenSubset(dataset, 6, dir);
    const first = new InProcessQueue(createHandlers(), 1, 1); // one case at a time: the restart comes mid-suite
    const { resolveConfig } = await import('../harness/config');
    const { suiteRunId, total } = await queueSuite(
      { kind: 'matrix', dataset, golden, config: resolveConfig({}), settings: MATRIX_SETTINGS, owner: { createdBy: env.ids.operator!, tenant: 'kittiwake' } },
      runQueueOf(first),
    );
    const stored = () => prisma.run.count({ where: { suiteRunId } });
    while ((await stored()) < 3) await new Promise((r) => setTimeout(r, 20));
    await first.close(); // the server stops: its in-process jobs are gone
    const before = await stored();
    expect(before).toBeLessThan(total);
    expect((await prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId } })).status).toBe('running');

    const second = new InProcessQueue(createHandlers(), 2); // the next server start
    expect(await recoverUnfinishedSuites(second)).toBeGreaterThanOrEqual(1);
    await second.idle();
    expect((await prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId } })).status).toBe('done');
    const rows = await prisma.run.findMany({ where: { suiteRunId }, select: { setting: true, caseId: true } });
    expect(rows).toHaveLength(total);
    expect(distinct(rows)).toBe(total);
    await second.close();
  });

  it('cancelling from the dashboard keeps a partial result marked cancelled; a viewer cannot cancel and another tenant cannot see it', async () => {
    const { InProcessQueue, createHandlers, queueSuite, runQueueOf, cancelSuiteAction, prisma } = await mods();
    const dataset = bundledDataset();
    const golden = goldenSubset(dataset, 6, dir);
    // One case at a time (the fake model's cases take the cpuOnly slots), so the cancel comes mid-suite.
    const queue = new InProcessQueue(createHandlers(), 1, 1);
    const { resolveConfig } = await import('../harness/config');
    const { suiteRunId, total } = await queueSuite(
      { kind: 'matrix', dataset, golden, config: resolveConfig({}), settings: MATRIX_SETTINGS, owner: { createdBy: env.ids.operator!, tenant: 'kittiwake' } },
      runQueueOf(queue),
    );
    while ((await prisma.run.count({ where: { suiteRunId } })) < 2) await new Promise((r) => setTimeout(r, 10));
    env.as('viewer');
    expect(await cancelSuiteAction({ id: suiteRunId })).toMatchObject({ ok: false, code: 'forbidden' });
    env.as('outsider');
    expect(await cancelSuiteAction({ id: suiteRunId })).toMatchObject({ ok: false, code: 'not_found' });
    env.as('operator');
    const res = await cancelSuiteAction({ id: suiteRunId });
    expect(res).toMatchObject({ ok: true, data: { status: 'cancelled' } });
    await queue.idle();
    const suite = await prisma.suiteRun.findUniqueOrThrow({ where: { id: suiteRunId } });
    expect(suite.status).toBe('cancelled');
    const stored = await prisma.run.count({ where: { suiteRunId } });
    expect(stored).toBe(suite.completed);
    expect(stored).toBeLessThan(total);
    expect(await prisma.suiteCase.count({ where: { suiteRunId } })).toBe(stored);
    expect(await cancelSuiteAction({ id: suiteRunId })).toMatchObject({ ok: false, code: 'already_finished' });
    await queue.close();
  });
});

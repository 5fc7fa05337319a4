/**
 * A run started from the dashboard on PostgreSQL is a job (issue 12: the web server enqueues and
 * reads; it runs no harness work): the action stores it `queued` and answers at once, a worker
 * process runs it through the same run service and stores it over that record, once. A run stopped
 * while queued ends at once and the worker that takes its job runs nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '../actions/testing/action-env';
import { testProviders } from '../db/testing/test-databases';
import { GraphileQueue } from './graphile';
import { spawnWorker } from './testing/worker-processes';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;

describe.skipIf(pgSkip !== null)('runs from the dashboard as jobs (PostgreSQL, a worker process)', { timeout: 300_000 }, () => {
  let env: ActionEnv;
  let queue: GraphileQueue;
  beforeAll(async () => {
    env = await setUpActionEnv({ provider: 'postgres' });
    queue = new GraphileQueue(env.url);
  });
  afterAll(async () => {
    await queue?.close();
    await env?.cleanup();
  });

  const runRow = async (id: string) => {
    const { getDb } = await import('../db/core/client');
    return getDb().prisma.run.findUniqueOrThrow({ where: { id }, select: { status: true, steps: true, finalAnswer: true, terminationReason: true, tenant: true, caseId: true, createdBy: true } });
  };
  /** Starts a run from the launcher as the operator; its id. */
  const startQueued = async (caseId: string) => {
    const { startRunAction } = await import('../actions/start-run');
    env.as('operator');
    const res = await startRunAction({ datasetId: 'bundled', caseId });
    if (!res.ok) throw new Error(res.error);
    return res.data.runId;
  };
  /** Starts a worker process, waits until `ok`, and stops it. */
  const withWorker = async (what: string, ok: () => Promise<boolean>) => {
    const worker = await spawnWorker({ databaseUrl: env.url, concurrency: 2 });
    try {
      for (let i = 0; !(await ok()); i++) {
        if (i > 1200) throw new Error(`gave up waiting for ${what}\n${worker.output()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await worker.stop();
    }
  };

  it('is stored queued and answered at once; a worker runs it, and it is stored once, as the same run the request path makes', async () => {
    const { runOneAction } = await import('../actions/run-one');
    const { getDb } = await import('../db/core/client');
    const runId = await startQueued('S003');
    // No worker yet: nothing ran in the request.
    expect(await runRow(runId)).toMatchObject({ status: 'queued', steps: 0, finalAnswer: '', tenant: 'kittiwake', caseId: 'S003', createdBy: env.ids.operator });
    expect(await queue.countJobs('run')).toBe(1);

    await withWorker('the run to finish', async () => (await runRow(runId)).status === 'finished' && (await queue.countJobs('run')) === 0);
    const ran = await runRow(runId);
    expect(ran.steps).toBeGreaterThan(0);
    expect(await getDb().prisma.run.count({ where: { id: runId } })).toBe(1);
    // The same case through the in-request path of the same run service (the fake model is deterministic).
    const here = await runOneAction({ datasetId: 'bundled', caseId: 'S003' });
    if (!here.ok) throw new Error(here.error);
    expect(ran).toMatchObject({ steps: here.data.steps, finalAnswer: here.data.finalAnswer, terminationReason: here.data.terminationReason });
  });

  it('stopped while queued: it ends at once saying so, and the worker that takes its job runs nothing', async () => {
    const { stopRunAction } = await import('../actions/stop-run');
    const { STOPPED_WHILE_QUEUED } = await import('../runs/stop-runs');
    const runId = await startQueued('S001');
    expect(await stopRunAction({ id: runId })).toMatchObject({ ok: true });
    const stopped = await runRow(runId);
    expect(stopped).toMatchObject({ status: 'finished', steps: 0, terminationReason: 'MODEL_ERROR', finalAnswer: STOPPED_WHILE_QUEUED });

    await withWorker('the job to be taken', async () => (await queue.countJobs('run')) === 0);
    expect(await runRow(runId)).toEqual(stopped);
    expect(await stopRunAction({ id: runId })).toMatchObject({ ok: false, code: 'already_finished' });
  });

  it('refuses bad input before anything is stored or queued, naming the field', async () => {
    const { startRunAction } = await import('../actions/start-run');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const before = { runs: await getDb().prisma.run.count(), jobs: await queue.countJobs('run') };
    const res = await startRunAction({ datasetId: 'bundled', caseId: 'S999' });
    expect(res).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { caseId: [expect.any(String)] } });
    expect({ runs: await getDb().prisma.run.count(), jobs: await queue.countJobs('run') }).toEqual(before);
  });

  it('a worker that cannot honour the run (its dataset is not on that machine) ends it saying why, and a second take of the job runs nothing', async () => {
    const { couldNotStartAnswer, runQueuedRun } = await import('../runs/queued');
    const runId = await startQueued('S002');
    const { RunOneInputSchema } = await import('../schemas/run-settings');
    const job = { runId, input: RunOneInputSchema.parse({ datasetId: 'not-on-this-worker', caseId: 'S002' }), caller: { id: env.ids.operator!, tenant: 'kittiwake' } };
    expect(await runQueuedRun(job)).toBe('refused');
    expect(await runRow(runId)).toMatchObject({ status: 'finished', steps: 0, terminationReason: 'MODEL_ERROR', finalAnswer: couldNotStartAnswer("Unknown dataset 'not-on-this-worker'.") });
    expect(await runQueuedRun(job)).toBe('skipped');
  });
});

/**
 * Governed resumes as jobs on PostgreSQL with two worker processes: a decided request's run is
 * resumed exactly once, whichever worker takes it, even when two resume jobs race for it (two
 * sweeps, a retry): the claim by compare-and-set lets one through, the other finds it taken. A
 * reviewer's decision only enqueues the resume; the request does not run it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '../actions/testing/action-env';
import { testProviders } from '../db/testing/test-databases';
import { GraphileQueue } from './graphile';
import { spawnWorker, type WorkerProcess } from './testing/worker-processes';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')!.skipReason;

describe.skipIf(pgSkip !== null)('governed resumes as jobs (PostgreSQL, two worker processes)', { timeout: 300_000 }, () => {
  let env: ActionEnv;
  let queue: GraphileQueue;
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    env = await setUpActionEnv({ provider: 'postgres' });
    queue = new GraphileQueue(env.url);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await queue?.close();
    await env?.cleanup();
  });

  /** An operator's governed run of the restock case, paused for approval: its run and request ids. */
  const pausedRun = async () => {
    const { runGovernedAction } = await import('../actions/run-governed');
    env.as('operator');
    const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!res.ok || !res.data.approvalId) throw new Error(`the run did not pause: ${JSON.stringify(res)}`);
    return { runId: res.data.runId, approvalId: res.data.approvalId };
  };

  it("a reviewer's decision enqueues the resume instead of running it in the request: a worker resumes the run, once", async () => {
    const { decideApprovalAction } = await import('../actions/decide-approval');
    const { getDb } = await import('../db/core/client');
    const prisma = getDb().prisma;
    const { runId, approvalId } = await pausedRun();

    env.as('reviewer');
    const decided = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'within budget' });
    if (!decided.ok) throw new Error(decided.error);
    // Answered before any resume: no worker runs yet, and the reviewer is told where it will happen.
    expect(decided.data).toMatchObject({ status: 'approved', run: null, dispatch: null });
    expect(decided.data.message).toMatch(/resumes on a worker.*No worker is running yet/);
    expect((await prisma.governedRun.findUniqueOrThrow({ where: { runId } })).status).toBe('paused');
    expect(await prisma.effectJournalEntry.count({ where: { runId, status: 'committed' } })).toBe(0);
    expect(await queue.countJobs('governed-resume')).toBe(1);

    const worker = await spawnWorker({ databaseUrl: env.url, concurrency: 2 });
    try {
      for (let i = 0; ; i++) {
        const run = await prisma.governedRun.findUniqueOrThrow({ where: { runId } });
        if (run.status === 'finished' && (await queue.countJobs('governed-resume')) === 0) break;
        if (i > 1200) throw new Error(`the run did not finish: ${run.status}\n${worker.output()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await worker.stop();
    }
    expect(await prisma.effectJournalEntry.count({ where: { runId, status: 'committed' } })).toBe(1);
    expect((await prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('finished');
  });

  it('two resume jobs for one approved run: it is resumed once, by one of the workers, and its write is committed once', async () => {
    const { getDb } = await import('../db/core/client');
    const { decideApproval } = await import('../db/governance/governance-approvals');
    const { getIdentity } = await import('../db/governance/governance-members');
    const prisma = getDb().prisma;
    const { runId, approvalId } = await pausedRun();
    // Decided in the data layer only: nothing resumes it in this process.
    const reviewer = (await getIdentity(prisma, env.ids.reviewer!))!;
    const decided = await decideApproval(prisma, { id: approvalId, reviewer, verdict: 'approve', reason: 'fine', now: new Date() });
    expect(decided).toMatchObject({ ok: true, status: 'approved' });
    expect((await prisma.governedRun.findUniqueOrThrow({ where: { runId } })).status).toBe('paused');

    workers.push(await spawnWorker({ databaseUrl: env.url, concurrency: 2 }), await spawnWorker({ databaseUrl: env.url, concurrency: 2 }));
    await queue.enqueue('governed-resume', { runId }, { key: `test-a:${runId}` });
    await queue.enqueue('governed-resume', { runId }, { key: `test-b:${runId}` });
    for (let i = 0; ; i++) {
      const run = await prisma.governedRun.findUniqueOrThrow({ where: { runId } });
      if (run.status === 'finished' && (await queue.countJobs('governed-resume')) === 0) break;
      if (i > 1200) throw new Error(`the run did not finish: ${run.status}\n${workers.map((w) => w.output()).join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const events = await prisma.evidenceEvent.findMany({ where: { runId }, select: { body: true } });
    const kinds = events.map((e) => (JSON.parse(e.body) as { kind: string }).kind);
    expect(kinds.filter((k) => k === 'revalidated')).toHaveLength(1);
    const journal = await prisma.effectJournalEntry.findMany({ where: { runId } });
    expect(journal.filter((j) => j.status === 'committed')).toHaveLength(1);
    expect((await prisma.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('finished');
  });
});

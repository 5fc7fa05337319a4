/**
 * Governed resumes as jobs on PostgreSQL with two worker processes: a decided request's run is
 * resumed exactly once, whichever worker takes it, even when two resume jobs race for it (two
 * sweeps, a retry): the claim by compare-and-set lets one through, the other finds it taken.
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

  it('two resume jobs for one approved run: it is resumed once, by one of the workers, and its write is committed once', async () => {
    const { runGovernedAction } = await import('../actions/run-governed');
    const { getDb } = await import('../db/client');
    const { decideApproval } = await import('../db/governance-approvals');
    const { getIdentity } = await import('../db/governance-members');
    const prisma = getDb().prisma;
    env.as('operator');
    const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!res.ok) throw new Error(res.error);
    const { runId, approvalId } = res.data;
    expect(approvalId).not.toBeNull();
    // Decided in the data layer only: nothing resumes it in this process.
    const reviewer = (await getIdentity(prisma, env.ids.reviewer!))!;
    const decided = await decideApproval(prisma, { id: approvalId!, reviewer, verdict: 'approve', reason: 'fine', now: new Date() });
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

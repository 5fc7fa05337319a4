/**
 * A decision on PostgreSQL with no worker running (issue 42): the run is resumed by a worker, none
 * is alive, so the request and the run say "approved — waiting for a worker (none running)" rather
 * than leaving the run "waiting for approval". Skipped when no server answers on 127.0.0.1:5432.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testProviders } from '../db/testing/test-databases';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const postgres = (await testProviders()).find((p) => p.name === 'postgres')!;

describe.skipIf(postgres.skipReason !== null)('deciding on PostgreSQL with no worker running', () => {
  let env: ActionEnv;
  beforeAll(async () => {
    env = await setUpActionEnv({ provider: 'postgres' });
  });
  afterAll(async () => env?.cleanup());

  it('says the approved run waits for a worker, on the reply, the request and the run, not for approval', async () => {
    const { runGovernedAction } = await import('./run-governed');
    const { decideApprovalAction } = await import('./decide-approval');
    const { requestOutcomes } = await import('../runs/request-view');
    const { getApprovalOrThrow, approvalsForRuns } = await import('../db/governance/governance-approvals');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const started = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!started.ok) throw new Error(started.error);
    expect(started.data).toMatchObject({ status: 'paused' });
    env.as('reviewer');
    const res = await decideApprovalAction({ id: started.data.approvalId!, verdict: 'approve', reason: 'the supplier confirmed' });
    if (!res.ok) throw new Error(res.error);
    expect(res.data.message).toContain('No worker is running yet');
    expect(res.data.outcome).toMatchObject({ phase: 'waiting_for_worker', text: 'approved — waiting for a worker (none running)' });

    // What the request page, the queue and the run page read: the same line, while the stored run is still paused.
    const prisma = getDb().prisma;
    const req = await getApprovalOrThrow(prisma, started.data.approvalId!);
    expect(req.status).toBe('approved');
    expect((await requestOutcomes([req])).get(req.id)?.text).toBe('approved — waiting for a worker (none running)');
    expect(await prisma.governedRun.findUniqueOrThrow({ where: { runId: started.data.runId }, select: { status: true } })).toEqual({ status: 'paused' });
    const requests = (await approvalsForRuns(prisma, [started.data.runId])).get(started.data.runId) ?? [];
    expect(requests.some((r) => r.status === 'pending')).toBe(false);
  });
});

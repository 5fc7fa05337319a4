/**
 * Governed runs move on without anyone opening them (SQLite, through the server actions): an
 * expired approval finishes its run, a decided request whose resume failed is resumed once the
 * cause is fixed (the failure visible on the run and the request meanwhile), and a run stuck
 * resuming past the lease is taken over. Governed input the database cannot store is refused up
 * front, and a failure after a committed write says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESUME_LEASE_MS } from '../governance/governed-run';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let policyFile: string;
const mod = async () => ({
  ...(await import('./run-governed')),
  ...(await import('./decide-approval')),
  ...(await import('../runs/sweeper')),
  db: (await import('../db/core/client')).getDb().prisma,
  approvals: await import('../db/governance/governance-approvals'),
  runs: await import('../db/runs/runs-read'),
});

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-policy-'));
  policyFile = path.join(dir, 'policy.json');
  fs.copyFileSync(path.resolve('config/policy.json'), policyFile);
  process.env.STOCKROOM_POLICY_FILE = policyFile;
  env = await setUpActionEnv();
});
afterAll(async () => {
  delete process.env.STOCKROOM_POLICY_FILE;
  await env?.cleanup();
  fs.rmSync(path.dirname(policyFile), { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
  fs.copyFileSync(path.resolve('config/policy.json'), policyFile);
});

async function pausedRun(): Promise<{ runId: string; approvalId: string }> {
  const { runGovernedAction } = await mod();
  env.as('operator');
  const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
  if (!res.ok) throw new Error(res.error);
  return { runId: res.data.runId, approvalId: res.data.approvalId! };
}

describe('the governed-run sweeper', () => {
  it('finishes a run whose approval expired without anyone opening it', async () => {
    const { sweepGovernedRuns, db, approvals, runs } = await mod();
    const { runId, approvalId } = await pausedRun();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000); // the policy's TTL is one day
    const report = await sweepGovernedRuns();
    expect(report.resumed).toContain(runId);
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'expired' });
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished' });
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ status: 'finished' });
    expect(await db.effectJournalEntry.count({ where: { runId } })).toBe(0);
  });

  it('a resume that failed (policy file broken) is visible on the run and the request, and is resumed once it is fixed', async () => {
    const { decideApprovalAction, sweepGovernedRuns, db, approvals, runs } = await mod();
    const { runId, approvalId } = await pausedRun();
    fs.writeFileSync(policyFile, '{ not json');
    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine by me' });
    expect(res).toMatchObject({ ok: true, data: { status: 'approved', run: null, message: expect.stringMatching(/was recorded, but resuming the run failed .*resumed automatically/) } });
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ status: 'paused', lastError: expect.stringContaining('resume failed') });
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'approved', resumeError: expect.stringContaining('resume failed') });
    // Still broken: the sweep fails again and says so.
    expect((await sweepGovernedRuns()).failed.map((f) => f.runId)).toContain(runId);

    fs.copyFileSync(path.resolve('config/policy.json'), policyFile);
    expect((await sweepGovernedRuns()).resumed).toContain(runId);
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(await db.effectJournalEntry.findMany({ where: { runId }, select: { status: true } })).toEqual([{ status: 'committed' }]);
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ status: 'finished', lastError: null });
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'approved' });
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ resumeError: null });
  });

  it('takes over a run stuck resuming past the lease, and leaves one within the lease alone', async () => {
    const { decideApprovalAction, sweepGovernedRuns, db, runs } = await mod();
    const { runId, approvalId } = await pausedRun();
    fs.writeFileSync(policyFile, '{ not json');
    env.as('reviewer');
    await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine by me' });
    fs.copyFileSync(path.resolve('config/policy.json'), policyFile);
    // A worker claimed the run and died.
    await db.governedRun.update({ where: { runId }, data: { status: 'resuming', stateVersion: { increment: 1 } } });
    expect((await sweepGovernedRuns()).resumed).not.toContain(runId);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + RESUME_LEASE_MS + 60_000);
    expect((await sweepGovernedRuns()).resumed).toContain(runId);
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
  });
});

describe('governed input and outcomes that are true', () => {
  it('refuses a query with an unpaired surrogate with a field error before anything is written', async () => {
    const { runGovernedAction, db } = await mod();
    env.as('operator');
    const before = { runs: await db.governedRun.count(), events: await db.evidenceEvent.count(), journal: await db.effectJournalEntry.count() };
    const res = await runGovernedAction({ datasetId: 'bundled', query: 'restock 750 units of SKU-1001 \ud800 urgently' });
    expect(res).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { query: [expect.stringContaining('unpaired surrogate')] } });
    expect({ runs: await db.governedRun.count(), events: await db.evidenceEvent.count(), journal: await db.effectJournalEntry.count() }).toEqual(before);
  });

  it('refuses a reviewer reason with an unpaired surrogate with a field error, and the request stays pending', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const { approvalId } = await pausedRun();
    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine \udc00 by me' });
    expect(res).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { reason: [expect.stringContaining('unpaired surrogate')] } });
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'pending' });
  });

  it('a resume that fails after its write was committed tells the reviewer the write happened', async () => {
    const { decideApprovalAction, db } = await mod();
    const runsWrite = await import('../db/runs/runs-write');
    const { runId, approvalId } = await pausedRun();
    const spy = vi.spyOn(runsWrite, 'replaceRun').mockRejectedValueOnce(new Error('the database refused the run row'));
    try {
      env.as('reviewer');
      const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine by me' });
      expect(res).toMatchObject({ ok: false, code: 'failed_after_write', error: expect.stringMatching(/create_restock_request committed .*Do not start it again/) });
      expect(await db.effectJournalEntry.findMany({ where: { runId }, select: { status: true } })).toEqual([{ status: 'committed' }]);
      // The driver's words stay in the server log; the run says a server error happened.
      expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ lastError: expect.stringContaining('an unexpected server error') });
    } finally {
      spy.mockRestore();
    }
    // The sweeper stores the finished run the failure left behind; nothing is dispatched again.
    const { sweepGovernedRuns, runs } = await mod();
    expect((await sweepGovernedRuns()).resumed).toContain(runId);
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(await db.effectJournalEntry.findMany({ where: { runId }, select: { status: true } })).toEqual([{ status: 'committed' }]);
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ lastError: null });
  });

  it('repairs a run marked finished whose connection was lost before its stored run and its run_finished event were written (issue 42: a restart in the resume\'s last writes)', async () => {
    const { sweepGovernedRuns, db, runs } = await mod();
    const governedRuns = await import('../db/governance/governance-runs');
    const evidence = await import('../db/governance/governance-evidence');
    const { runId } = await pausedRun();
    const before = await db.governedRun.findUniqueOrThrow({ where: { runId } });
    // The resume's compare-and-set to finished carries the mark with it (the whole transition is one statement).
    const { RunResultSchema } = await import('../harness');
    const finished = RunResultSchema.parse({ ...JSON.parse(before.result), status: 'finished', checkpoint: null, terminationReason: 'COMPLETED' });
    expect(await governedRuns.updateGovernedRun(db, runId, before.stateVersion, { status: 'finished', expectedStatus: 'paused', result: finished })).toBe(true);
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ status: 'finished', lastError: governedRuns.STORE_PENDING });
    // ...and then the database went away: nothing after it was written. The run's finish is a minute old.
    const finishedAt = new Date(Date.now() - 60_000);
    await db.governedRun.update({ where: { runId }, data: { updatedAt: finishedAt } });
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'paused' });
    const kinds = async () => (await evidence.listEvidence(db, { runId })).map((e) => (e.body as { kind: string }).kind);
    expect(await kinds()).not.toContain('run_finished');
    expect((await evidence.verifyStoredChain(db)).ok).toBe(false);

    // The sweep finds it by its mark, stores the run and adds the lost event at the recorded finish.
    expect((await sweepGovernedRuns()).resumed).toContain(runId);
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ lastError: null });
    const ended = (await evidence.listEvidence(db, { runId })).filter((e) => (e.body as { kind: string }).kind === 'run_finished');
    expect(ended.map((e) => (e.body as { at: string }).at)).toEqual([finishedAt.toISOString()]);
    expect(await evidence.verifyStoredChain(db)).toMatchObject({ ok: true });
    // Once: a second sweep adds nothing.
    expect((await sweepGovernedRuns()).resumed).not.toContain(runId);
    expect((await kinds()).filter((k) => k === 'run_finished')).toHaveLength(1);
  });

  it('a retried resume job repairs a run it finds just marked finished with its events lost, evidence included, without leaving it to the sweep', async () => {
    const { db, runs } = await mod();
    const governedRuns = await import('../db/governance/governance-runs');
    const evidence = await import('../db/governance/governance-evidence');
    const { resumeGovernedJob } = await import('../jobs/governed-jobs');
    const { runId } = await pausedRun();
    const before = await db.governedRun.findUniqueOrThrow({ where: { runId } });
    const { RunResultSchema } = await import('../harness');
    const finished = RunResultSchema.parse({ ...JSON.parse(before.result), status: 'finished', checkpoint: null, terminationReason: 'COMPLETED' });
    // The first attempt marked the run finished a moment ago and lost the database before its batched
    // events and its stored run were written (PostgreSQL restarted 0.1 s after a decision).
    expect(await governedRuns.updateGovernedRun(db, runId, before.stateVersion, { status: 'finished', expectedStatus: 'paused', result: finished })).toBe(true);
    expect((await evidence.verifyStoredChain(db)).ok).toBe(false);

    // The job's next attempt: the run is no longer paused, so it repairs what the first left.
    expect(await resumeGovernedJob(runId)).toBe('resumed');
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ lastError: null });
    const kinds = (await evidence.listEvidence(db, { runId })).map((e) => (e.body as { kind: string }).kind);
    expect(kinds.filter((k) => k === 'run_finished')).toHaveLength(1);
    expect(await evidence.verifyStoredChain(db)).toMatchObject({ ok: true });
  });

  it('a resume that ends normally leaves no mark: the stored run is written and the mark cleared', async () => {
    const { decideApprovalAction, db, runs } = await mod();
    const { runId, approvalId } = await pausedRun();
    env.as('reviewer');
    expect(await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine' })).toMatchObject({ ok: true });
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ status: 'finished', lastError: null });
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished' });
  });

  it('asks again about an effect left unknown, at 1, 2, 4… minutes, through the Effects page reconciler; a drill-left one waits for an operator (issue 42)', async () => {
    const { reconcileUnknownEffects, db } = await mod();
    const at = (minutes: number, base: Date) => new Date(base.getTime() + minutes * 60_000 + 1_000);
    const entry = (key: string, error: string) =>
      db.effectJournalEntry.create({
        data: { operationKey: key, runId: 'run-sweep-unknown', callId: 'c', tool: 'create_restock_request', toolVersion: '1', status: 'unknown', argumentsDigest: 'd', error, attempts: 1, createdAt: new Date(), updatedAt: new Date() },
      });
    const plain = await entry('op:run-sweep-unknown:c1:create_restock_request@1', 'no outcome recorded after dispatch');
    await entry('op:run-sweep-unknown:c2:create_restock_request@1', 'instructor fault injection (armed by admin@example.test): the write was applied, then its answer was dropped as if the call timed out');
    // Not yet a minute, and then at 3 minutes (not a power of two): not asked.
    expect(await reconcileUnknownEffects(new Date(plain.updatedAt.getTime() + 30_000))).toEqual([]);
    expect(await reconcileUnknownEffects(at(3, plain.updatedAt))).toEqual([]);
    // At 2 minutes it is asked: the durable ledger has no record, so it is reconciled absent.
    expect(await reconcileUnknownEffects(at(2, plain.updatedAt))).toEqual([plain.operationKey]);
    expect((await db.effectJournalEntry.findUniqueOrThrow({ where: { operationKey: plain.operationKey } })).status).toBe('reconciled_absent');
    expect((await db.effectJournalEntry.findUniqueOrThrow({ where: { operationKey: 'op:run-sweep-unknown:c2:create_restock_request@1' } })).status).toBe('unknown');
  });
});

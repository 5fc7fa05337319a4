/**
 * The approvals flow through the server actions, on SQLite: an operator's governed run pauses on a
 * restock above the auto-approve limit, a reviewer decides, and the run resumes. Each refusal a
 * reviewer can meet comes back with its own code and a message that says what happened.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let policyFile: string;
const mod = async () => ({
  ...(await import('./run-governed')),
  ...(await import('./decide-approval')),
  ...(await import('./reconcile-effect')),
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

/** The operator runs S024 (750 units) under the policy; it pauses. */
async function pausedRun(): Promise<{ runId: string; approvalId: string }> {
  const { runGovernedAction } = await mod();
  env.as('operator');
  const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
  if (!res.ok) throw new Error(res.error);
  expect(res.data).toMatchObject({ status: 'paused', approvalId: expect.stringMatching(/^apr_/) });
  return { runId: res.data.runId, approvalId: res.data.approvalId! };
}

describe('deciding an approval request', () => {
  it('approves a request an MCP client asked for without resuming any run, telling the reviewer the client retries', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const now = new Date();
    const proposal = {
      actor: 'mcp-agent',
      tenant: 'kittiwake',
      tool: 'create_restock_request',
      toolVersion: '1',
      schemaDigest: 'd',
      arguments: { sku: 'SKU-2001', quantity: 900 },
      policyVersion: 'v',
      expiresAt: new Date(now.getTime() + 60_000).toISOString(),
    };
    const { proposalDigest } = await import('../governance/proposal');
    const req = await approvals.createApprovalRequest(
      db,
      { id: `apr_mcp_${now.getTime()}`, runId: 'mcp:mcp-agent', callId: `c${now.getTime()}:0`, step: 0, rule: 'restock-above-auto-approve', message: 'm', approverRole: 'reviewer', quorum: 1, proposal, digest: proposalDigest(proposal) },
      now,
    );
    env.as('reviewer');
    const res = await decideApprovalAction({ id: req.id, verdict: 'approve', reason: 'fine' });
    expect(res).toMatchObject({ ok: true, data: { status: 'approved', run: null, dispatch: null, message: expect.stringMatching(/MCP client .* identical call/) } });
    expect(await approvals.getApprovalOrThrow(db, req.id)).toMatchObject({ status: 'approved', resumeError: null });
  });

  it('shows the paused run as waiting, and an approval resumes it to completion with one committed write', async () => {
    const { decideApprovalAction, db, runs } = await mod();
    const { runId, approvalId } = await pausedRun();
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'paused' });
    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'the supplier confirmed the lead time' });
    expect(res).toMatchObject({ ok: true, data: { status: 'approved', run: { status: 'finished', terminationReason: 'COMPLETED' }, dispatch: { status: 'approved' } } });
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(await db.effectJournalEntry.findMany({ where: { runId }, select: { status: true, tool: true } })).toEqual([{ status: 'committed', tool: 'create_restock_request' }]);
  });

  it('a denial finishes the run without the write, and the reason is kept', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const { runId, approvalId } = await pausedRun();
    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'deny', reason: 'we are overstocked' });
    expect(res).toMatchObject({ ok: true, data: { status: 'denied', dispatch: { status: 'denied' }, run: { status: 'finished' } } });
    expect((await approvals.getApprovalOrThrow(db, approvalId)).decisions).toMatchObject([{ verdict: 'deny', reason: 'we are overstocked' }]);
    expect(await db.effectJournalEntry.count({ where: { runId } })).toBe(0);
  });

  it('refuses self-approval: the operator who started the run cannot review it, even as an admin', async () => {
    const { decideApprovalAction, runGovernedAction, db, approvals } = await mod();
    env.as('admin');
    const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    const id = (res as { data: { approvalId: string } }).data.approvalId;
    const out = await decideApprovalAction({ id, verdict: 'approve', reason: 'my own call' });
    expect(out).toMatchObject({ ok: false, code: 'self_approval', error: expect.stringMatching(/You started this run/) });
    expect(await approvals.getApprovalOrThrow(db, id)).toMatchObject({ status: 'pending', decisions: [] });
  });

  it('answers a reviewer of another tenant exactly as for a request that does not exist, naming no tenant', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const { approvalId } = await pausedRun();
    env.as('outsider');
    const missing = await decideApprovalAction({ id: 'no-such-request', verdict: 'approve', reason: 'looks fine' });
    const foreign = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'looks fine' });
    expect(foreign).toEqual({ ...missing, error: missing.ok ? '' : missing.error.replace('no-such-request', approvalId) });
    expect(foreign).toMatchObject({ ok: false, code: 'not_found' });
    expect(JSON.stringify(foreign)).not.toMatch(/kittiwake/);
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'pending', decisions: [] });
  });

  it('of two reviewers deciding at once, one wins and the other is told who decided first', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const { approvalId } = await pausedRun();
    env.as('reviewer');
    const first = decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine by me' });
    env.as('reviewer2');
    const second = decideApprovalAction({ id: approvalId, verdict: 'deny', reason: 'not now' });
    const results = await Promise.all([first, second]);
    const winners = results.filter((r) => r.ok);
    const losers = results.filter((r) => !r.ok);
    expect(winners).toHaveLength(1);
    expect(losers).toEqual([expect.objectContaining({ code: 'already_decided', error: expect.stringMatching(/^Someone else decided first\. reviewer2?@example\.test (approved|denied) it at .* UTC/) })]);
    expect((await approvals.getApprovalOrThrow(db, approvalId)).decisions).toHaveLength(1);
  });

  it('refuses an expired request, marks it expired, and lets the run finish without the write', async () => {
    const { decideApprovalAction, db, approvals, runs } = await mod();
    const { runId, approvalId } = await pausedRun();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000); // the policy's TTL is one day
    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'sorry, late' });
    expect(res).toMatchObject({ ok: false, code: 'expired', error: expect.stringMatching(/^This request expired at .* UTC and can no longer be decided\./) });
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'expired', decisions: [] });
    expect(await runs.getRunSummary(runId)).toMatchObject({ status: 'finished' });
    expect(await db.effectJournalEntry.count({ where: { runId } })).toBe(0);
  });

  it('answers a late decision on a request already marked expired with its expiry, not with "someone else decided first"', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const { approvalId } = await pausedRun();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    env.as('reviewer');
    await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'first late attempt' });
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'expired', decisions: [] });
    // Nobody decided it: the second reviewer is told it expired.
    env.as('reviewer2');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'deny', reason: 'second late attempt' });
    expect(res).toMatchObject({ ok: false, code: 'expired', error: expect.stringMatching(/^This request expired at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC and can no longer be decided\.$/) });
    expect(res.ok ? '' : res.error).not.toContain('Someone else');
  });

  it('records an approval whose policy changed since the request, then refuses the call as stale naming policyVersion', async () => {
    const { decideApprovalAction, db, approvals } = await mod();
    const { runId, approvalId } = await pausedRun();
    fs.appendFileSync(policyFile, '\n'); // any byte changes the policy version
    env.as('reviewer');
    const res = await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine by me' });
    expect(res).toMatchObject({ ok: true, data: { status: 'stale', dispatch: { status: 'stale', field: 'policyVersion' } } });
    expect((res as { data: { message: string } }).data.message).toMatch(/stale \(policyVersion changed\)/);
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'stale', outcomeDetail: expect.stringMatching(/policyVersion changed/) });
    expect(await db.effectJournalEntry.count({ where: { runId } })).toBe(0);
  });

  it('refuses a second decision on a decided request', async () => {
    const { decideApprovalAction } = await mod();
    const { approvalId } = await pausedRun();
    env.as('reviewer');
    await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine' });
    expect(await decideApprovalAction({ id: approvalId, verdict: 'deny', reason: 'changed my mind' })).toMatchObject({ ok: false, code: 'already_decided' });
  });

  it('deleting a paused governed run cancels its request: approving afterwards neither recreates the run nor writes', async () => {
    const { decideApprovalAction, db, approvals, runs } = await mod();
    const { deleteRunAction } = await import('./delete-run');
    const { runId, approvalId } = await pausedRun();
    env.as('operator');
    expect(await deleteRunAction({ runId })).toEqual({ ok: true, data: { runId } });
    expect(await approvals.getApprovalOrThrow(db, approvalId)).toMatchObject({ status: 'cancelled', outcomeDetail: 'the run was deleted' });
    env.as('reviewer');
    expect(await decideApprovalAction({ id: approvalId, verdict: 'approve', reason: 'fine' })).toMatchObject({ ok: false, code: 'already_decided' });
    expect(await runs.getRunSummary(runId)).toBeNull();
    expect(await db.effectJournalEntry.count({ where: { runId } })).toBe(0);
    expect(await db.governedRun.findUniqueOrThrow({ where: { runId } })).toMatchObject({ status: 'cancelled' });
  });

  it('answers an unknown request id with not found', async () => {
    const { decideApprovalAction } = await mod();
    env.as('reviewer');
    expect(await decideApprovalAction({ id: 'apr_nope', verdict: 'approve', reason: 'fine' })).toMatchObject({ ok: false, code: 'not_found' });
  });
});

describe('reconciling the effect journal', () => {
  it('moves an unknown write to reconciled_absent once, and refuses entries that are not unknown', async () => {
    const { reconcileEffectAction, db } = await mod();
    const { PrismaJournalStore } = await import('../db/governance/governance-journal');
    const journal = new PrismaJournalStore(db);
    const at = new Date().toISOString();
    // The entry belongs to a governed run of the operator's tenant (entries of other tenants answer as not found).
    const { runId } = await pausedRun();
    const key = `op:${runId}:call-1:create_restock_request@1`;
    await journal.prepare({ operationKey: key, runId, callId: 'call-1', tool: 'create_restock_request', toolVersion: '1', argumentsDigest: 'd' }, at);
    await journal.transition(key, 'prepared', 'dispatched', { attempts: 1 }, at);
    await journal.transition(key, 'dispatched', 'unknown', { error: 'crash' }, at);
    env.as('operator');
    const eventsBefore = await db.evidenceEvent.count({ where: { runId } });
    expect(await reconcileEffectAction({ operationKey: key })).toEqual({ ok: true, data: { operationKey: key, status: 'reconciled_absent' } });
    expect(await reconcileEffectAction({ operationKey: key })).toMatchObject({ ok: false, code: 'not_unknown', error: 'Only unknown entries are reconciled; this one is reconciled_absent.' });
    expect(await db.evidenceEvent.count({ where: { runId } })).toBe(eventsBefore + 1);
  });
});

describe('reconciling a write of an MCP-transport governed run', () => {
  it('finds the write in the durable ledger by operation key (it used to answer "no record" for every MCP run)', async () => {
    const { runGovernedAction, decideApprovalAction, reconcileEffectAction, db } = await mod();
    env.as('operator');
    const started = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024', transport: 'mcp-memory' });
    if (!started.ok) throw new Error(started.error);
    env.as('reviewer');
    expect(await decideApprovalAction({ id: started.data.approvalId!, verdict: 'approve', reason: 'supplier confirmed' })).toMatchObject({ ok: true, data: { run: { status: 'finished' } } });
    const [entry] = await db.effectJournalEntry.findMany({ where: { runId: started.data.runId } });
    expect(entry).toMatchObject({ status: 'committed' });
    const kept = await db.restockLedgerRecord.findUniqueOrThrow({ where: { operationKey: entry!.operationKey } });
    expect(kept).toMatchObject({ runId: started.data.runId, requestId: expect.stringMatching(/^RSR-\d{4}$/) });
    // The answer was lost (as after a crash between dispatch and record): reconciliation asks the ledger.
    await db.effectJournalEntry.update({ where: { operationKey: entry!.operationKey }, data: { status: 'unknown', result: null, resultDigest: null } });
    env.as('operator');
    expect(await reconcileEffectAction({ operationKey: entry!.operationKey })).toEqual({ ok: true, data: { operationKey: entry!.operationKey, status: 'reconciled_committed' } });
  });
});

describe('what happened to the approved call', () => {
  it('says the ledger rejected an approved S025 (4,500 units above its 4,000 limit), in the reply and in the request outcome', async () => {
    const { runGovernedAction, decideApprovalAction, db } = await mod();
    const { requestOutcomes } = await import('../runs/request-view');
    env.as('operator');
    const started = await runGovernedAction({ datasetId: 'bundled', caseId: 'S025' });
    if (!started.ok) throw new Error(started.error);
    env.as('reviewer');
    const res = await decideApprovalAction({ id: started.data.approvalId!, verdict: 'approve', reason: 'big order' });
    if (!res.ok) throw new Error(res.error);
    expect(res.data.message).toMatch(/^Approved — the ledger rejected it: rejected: quantities above 4,000 units are rejected automatically/);
    expect(res.data.outcome).toMatchObject({ phase: 'finished', tone: 'bad', writeFailed: true });
    const req = await (await import('../db/governance/governance-approvals')).getApprovalOrThrow(db, started.data.approvalId!);
    expect((await requestOutcomes([req])).get(req.id)?.text).toBe(res.data.outcome!.text);
    expect(await db.effectJournalEntry.findMany({ where: { runId: started.data.runId }, select: { status: true } })).toEqual([{ status: 'failed' }]);
  });

  it('names the restock an approved S024 created, and a denial says the run was told', async () => {
    const { decideApprovalAction } = await mod();
    const approved = await pausedRun();
    env.as('reviewer');
    const ok = await decideApprovalAction({ id: approved.approvalId, verdict: 'approve', reason: 'fine' });
    expect(ok).toMatchObject({ ok: true, data: { outcome: { text: expect.stringMatching(/^approved — RSR-\d{4} created$/), tone: 'good' } } });
    const denied = await pausedRun();
    env.as('reviewer');
    const no = await decideApprovalAction({ id: denied.approvalId, verdict: 'deny', reason: 'not now' });
    expect(no).toMatchObject({ ok: true, data: { outcome: { text: 'denied — the run was told' }, message: expect.stringMatching(/^Denied — the run was told\. The run finished/) } });
  });
});

describe('the answer after an approval', () => {
  it.each(['local', 'mcp-memory'] as const)(
    'reflects the approved write (%s): the ledger records the reviewer’s sign-off and the answer no longer says the restock waits for approval',
    async (transport) => {
      const { runGovernedAction, decideApprovalAction, runs, db } = await mod();
      env.as('operator');
      const started = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024', transport });
      if (!started.ok) throw new Error(started.error);
      env.as('reviewer');
      const res = await decideApprovalAction({ id: started.data.approvalId!, verdict: 'approve', reason: 'the manager signed off' });
      expect(res).toMatchObject({ ok: true, data: { run: { status: 'finished', terminationReason: 'COMPLETED' } } });
      const kept = await db.restockLedgerRecord.findFirstOrThrow({ where: { runId: started.data.runId } });
      const record = JSON.parse(kept.record) as { status: string; note: string };
      expect(record.status).toBe('open');
      expect(record.note).toContain(started.data.approvalId!);
      const summary = await runs.getRunSummary(started.data.runId);
      expect(summary!.finalAnswer).toMatch(/status open/);
      expect(summary!.finalAnswer).not.toMatch(/pending[_ ]approval|need manager approval/);
    },
  );
});

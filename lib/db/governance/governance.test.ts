import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStockroomAgent } from '../../stockroom/agent';
import { resolveConfig } from '../../harness/config';
import type { ToolExecutor } from '../../harness/executor';
import { scriptedModel, type TurnSpec } from '../../harness/testing/scripted-model';
import { isToolRecord } from '../../harness/types';
import { clearDatasetCache, loadDataset } from '../../stockroom/dataset/load-dataset';
import type { Dataset } from '../../stockroom/dataset/types';
import { StockroomEnvironment } from '../../stockroom/environment';
import { LocalToolExecutor } from '../../stockroom/executor/local-executor';
import { writeFixtureDataset } from '../../stockroom/testing/fixture-dataset';
import { ConflictError } from '../../governance/errors';
import { RESUME_LEASE_MS } from '../../governance/governed-run';
import { resumeGovernedRun, startGovernedRun, type AgentDriver, type GovernedContext } from '../../governance/governed-run';
import { loadPolicyFile, parsePolicy, type LoadedPolicy } from '../../governance/policy-file';
import { OPERATOR_SCOPES, type Principal } from '../../governance/principal';
import { openDatabase, type Database } from '../core/client';
import { decideApproval, getApprovalOrThrow } from './governance-approvals';
import { listEvidence, PrismaEvidenceSink, sealEvidenceChains, verifyStoredChain, witnessForDatabase } from './governance-evidence';
import { evidenceBody, eventHash } from '../../governance/evidence';
import { addMembership, getIdentity } from './governance-members';
import { prismaGovernanceStore } from './governance-store';
import { describeOnDatabases } from '../testing/on-databases';
import { PrismaJournalStore } from './governance-journal';
import { testProviders, type TestDatabase } from '../testing/test-databases';

const providers = await testProviders();

// The witness outside the database (issue 22 §5): one file for every test database, keyed by database.
const WITNESS = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-witness-')), 'evidence-witness.json');
process.env.STOCKROOM_EVIDENCE_WITNESS = WITNESS;
const policyFile = path.resolve('config/policy.json');
let dir: string;
let dataset: Dataset;
beforeAll(() => {
  dir = writeFixtureDataset();
  dataset = loadDataset(dir);
});
afterAll(() => {
  clearDatasetCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

const RESTOCK = { sku: 'SKU-2003', quantity: 900 };
const turns: TurnSpec[] = [{ calls: [['create_restock_request', RESTOCK]] }, { text: 'done' }];
const alice: Principal = { subject: 'alice', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] };

function driver(script: TurnSpec[] = turns): AgentDriver {
  const agent = async (executor: ToolExecutor, policy: Parameters<AgentDriver['run']>[1]) =>
    createStockroomAgent({ dataset, config: resolveConfig({}), executor, policy });
  return {
    run: async (ex, policy, operationKey, runId) => (await agent(ex, policy)).run('restock SKU-2003', null, { runId, operationKey, model: scriptedModel(script) }),
    resume: async (ex, policy, operationKey, paused, resolution) => (await agent(ex, policy)).resume(paused, resolution, { operationKey, model: scriptedModel(script) }),
  };
}

/** A "process": its own database handle, environment and executor. */
function processOn(
  url: string,
  options: { policy?: LoadedPolicy; executor?: (env: StockroomEnvironment) => ToolExecutor; now?: () => Date; script?: TurnSpec[] } = {},
) {
  const db = openDatabase(url);
  const env = new StockroomEnvironment(dataset, []);
  const executor = options.executor?.(env) ?? new LocalToolExecutor(env);
  const ctx: GovernedContext = { store: prismaGovernanceStore(db.prisma), policy: options.policy ?? loadPolicyFile(policyFile), executor, driver: driver(options.script), now: options.now };
  return { db, env, ctx };
}

async function seedUsers(db: Database) {
  for (const id of ['alice', 'bob', 'erin', 'carol', 'vic']) {
    await db.prisma.user.create({ data: { id, name: id, email: `${id}@example.test` } });
  }
  await addMembership(db.prisma, 'alice', 'kittiwake', 'admin');
  await addMembership(db.prisma, 'bob', 'kittiwake', 'reviewer');
  await addMembership(db.prisma, 'erin', 'kittiwake', 'reviewer');
  await addMembership(db.prisma, 'carol', 'other-depot', 'reviewer');
  await addMembership(db.prisma, 'vic', 'kittiwake', 'viewer');
}

describeOnDatabases('governed runs on $name', ({ provider, test, t }) => {
  beforeAll(async () => {
    if (provider.skipReason) return;
    await seedUsers(t.db);
  });

  async function pausedRun() {
    const p = processOn(t.url);
    const out = await startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: 'restock SKU-2003' } });
    await p.db.close();
    expect(out.result.status).toBe('paused');
    return out;
  }
  const approve = async (id: string, reviewer: string, verdict: 'approve' | 'deny' = 'approve', now = new Date()) =>
    decideApproval(t.db.prisma, { id, reviewer: (await getIdentity(t.db.prisma, reviewer))!, verdict, reason: `${reviewer} says ${verdict}`, now });

  test('pauses, survives a restart, resumes once after approval, and the restock is created once', async () => {
    const started = await pausedRun();
    expect(started.approval).toMatchObject({ status: 'pending', rule: 'restock-above-auto-approve', proposal: { actor: 'alice', tenant: 'kittiwake', arguments: RESTOCK } });
    expect(await approve(started.approval!.id, 'bob')).toMatchObject({ ok: true, status: 'approved' });

    // A fresh process: new database handle, new environment, nothing in memory from the first.
    const p = processOn(t.url);
    const done = await resumeGovernedRun(p.ctx, started.runId);
    expect(done.result).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED', finalAnswer: 'done' });
    const rec = done.result.trajectory.filter(isToolRecord)[0]!;
    expect(rec).toMatchObject({ executed: true, policy: { resolution: 'approved' } });
    expect(p.env.ledger.records()).toHaveLength(1);

    // A second worker resuming the same run loses the compare-and-set.
    await expect(resumeGovernedRun(processOn(t.url).ctx, started.runId)).rejects.toThrow(ConflictError);

    // Duplicate delivery of the approved call: the journal answers, no second restock.
    const journal = await p.ctx.store.journal.list({ runId: started.runId });
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({ status: 'committed' });
    const again = await p.ctx.executor.call('create_restock_request', RESTOCK, { operationKey: journal[0]!.operationKey });
    expect(again.content).toEqual(rec.resultContent);
    expect(p.env.ledger.records()).toHaveLength(1);
    await p.db.close();
  });

  test('a resume whose worker died is taken over after its lease, once, and its write is not repeated', async () => {
    const started = await pausedRun();
    expect(await approve(started.approval!.id, 'bob')).toMatchObject({ ok: true });
    // Worker 1 claims the run and dispatches the approved write, then dies before saving the result.
    const dying = processOn(t.url);
    const stored = await dying.ctx.store.getRun(started.runId);
    expect(await dying.ctx.store.updateRun(started.runId, stored.stateVersion, { status: 'resuming', expectedStatus: 'paused' })).toBe(true);
    const journal = await dying.ctx.store.journal.list({ runId: started.runId });
    expect(journal).toHaveLength(0);
    await dying.db.close();

    // Within the lease nobody may take it over.
    const early = processOn(t.url);
    await expect(resumeGovernedRun(early.ctx, started.runId)).rejects.toThrow(ConflictError);
    await early.db.close();

    // After the lease one worker takes it over and completes it; a second loses the compare-and-set.
    const later = () => new Date(Date.now() + RESUME_LEASE_MS + 60_000);
    const a = processOn(t.url, { now: later });
    const b = processOn(t.url, { now: later });
    // Truly at once on PostgreSQL; one after the other on SQLite, whose single writer would make the
    // loser wait on the file lock rather than lose the compare-and-set.
    const both = [() => resumeGovernedRun(a.ctx, started.runId), () => resumeGovernedRun(b.ctx, started.runId)];
    const outcomes =
      provider.name === 'postgres'
        ? await Promise.allSettled(both.map((f) => f()))
        : [...(await Promise.allSettled([both[0]!()])), ...(await Promise.allSettled([both[1]!()]))];
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect((won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof resumeGovernedRun>>>).value.result).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual([expect.any(ConflictError)]);
    expect(a.env.ledger.records().length + b.env.ledger.records().length).toBe(1);
    await a.db.close();
    await b.db.close();
  });

  test('a resume held through a job lease is taken over at once when its owner no longer holds the job, not after RESUME_LEASE_MS (issue 42)', async () => {
    const started = await pausedRun();
    expect(await approve(started.approval!.id, 'bob')).toMatchObject({ ok: true });
    // A worker claims the run under its job lease, then dies: its job is no longer locked by it.
    const dying = processOn(t.url);
    const stored = await dying.ctx.store.getRun(started.runId);
    const lease = { jobId: '41', lockedBy: 'pool-dead' };
    expect(await dying.ctx.store.updateRun(started.runId, stored.stateVersion, { status: 'resuming', expectedStatus: 'paused', owner: lease })).toBe(true);
    expect(await dying.ctx.store.getRun(started.runId)).toMatchObject({ status: 'resuming', owner: 'pool-dead/41', takenOverAt: null });
    await dying.db.close();

    // While the owner holds its job, nobody takes the run (the job engine's lease says it is alive).
    const early = processOn(t.url);
    await expect(resumeGovernedRun({ ...early.ctx, store: { ...early.ctx.store, ownerGone: async () => false } }, started.runId)).rejects.toThrow(ConflictError);
    await early.db.close();

    // Gone (no graphile job holds it): the next attempt takes it over now, with no clock moved.
    const next = processOn(t.url);
    const done = await resumeGovernedRun({ ...next.ctx, owner: { jobId: '42', lockedBy: 'pool-live' } }, started.runId);
    expect(done.result).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    const after = await next.ctx.store.getRun(started.runId);
    expect(after).toMatchObject({ status: 'finished', owner: null });
    expect(after.takenOverAt).not.toBeNull();
    expect(next.env.ledger.records()).toHaveLength(1);
    await next.db.close();
  });

  test("the next attempt of the owner's own job takes the run over (the earlier attempt is over), another job waits while it is held", async () => {
    const started = await pausedRun();
    expect(await approve(started.approval!.id, 'bob')).toMatchObject({ ok: true });
    const first = processOn(t.url);
    const stored = await first.ctx.store.getRun(started.runId);
    expect(await first.ctx.store.updateRun(started.runId, stored.stateVersion, { status: 'resuming', expectedStatus: 'paused', owner: { jobId: '7', lockedBy: 'pool-a' } })).toBe(true);
    await first.db.close();
    const held = async () => false;
    const other = processOn(t.url);
    await expect(resumeGovernedRun({ ...other.ctx, owner: { jobId: '8', lockedBy: 'pool-b' }, store: { ...other.ctx.store, ownerGone: held } }, started.runId)).rejects.toThrow(ConflictError);
    await other.db.close();
    const retry = processOn(t.url);
    const done = await resumeGovernedRun({ ...retry.ctx, owner: { jobId: '7', lockedBy: 'pool-b' }, store: { ...retry.ctx.store, ownerGone: held } }, started.runId);
    expect(done.result).toMatchObject({ status: 'finished' });
    await retry.db.close();
  });

  test('a run the policy never pauses is journaled and its evidence runs from start to finish', async () => {
    const small: TurnSpec[] = [{ calls: [['create_restock_request', { sku: 'SKU-2003', quantity: 20 }]] }, { text: 'ok' }];
    const p = processOn(t.url, { script: small });
    const out = await startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: 'restock SKU-2003' } });
    expect(out.result).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(out.approval).toBeNull();
    const kinds = (await listEvidence(p.db.prisma, { runId: out.runId })).map((e) => e.body.kind);
    expect(kinds[0]).toBe('run_started');
    expect(kinds.at(-1)).toBe('run_finished');
    expect(await p.ctx.store.journal.list({ runId: out.runId })).toMatchObject([{ status: 'committed' }]);
    await p.db.close();
  });

  test('a paused start stores its request, its run and its evidence, the request bound to the digest its evidence names (issue 36)', async () => {
    const started = await pausedRun();
    const stored = await getApprovalOrThrow(t.db.prisma, started.approval!.id, true);
    // What the start answered is what is stored: pending, bound to the same digest, the real proposal.
    expect(stored).toEqual(started.approval);
    expect(await prismaGovernanceStore(t.db.prisma).getRun(started.runId)).toMatchObject({ status: 'paused', principal: alice });
    const events = (await listEvidence(t.db.prisma, { runId: started.runId })).map((e) => e.body);
    expect(events.map((e) => e.kind)).toEqual(['run_started', 'policy_decision', 'approval_requested']);
    expect(events.at(-1)).toMatchObject({ callId: stored.callId, detail: `digest ${stored.digest}` });
    expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
  });

  test("a start whose run cannot be stored leaves no request nor approval_requested evidence, and keeps its decisions' evidence (issue 36)", async () => {
    // A stock read first, so the restock it pauses on is another call than the earlier start's.
    const p = processOn(t.url, { script: [{ calls: [['get_stock_level', { sku: 'SKU-2003' }]] }, ...turns] });
    // A run id already taken by another start: this start's insert of its run fails after the agent paused.
    const { runId } = await pausedRun();
    await expect(startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: 'restock SKU-2003' }, runId })).rejects.toThrow();
    expect(await t.db.prisma.approvalRequest.count({ where: { runId } })).toBe(1);
    const kinds = (await listEvidence(t.db.prisma, { runId })).map((e) => e.body.kind);
    expect(kinds).toEqual(['run_started', 'policy_decision', 'approval_requested', 'run_started', 'policy_decision', 'policy_decision']);
    expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
    await p.db.close();
  });

  test('the journal moves an entry once: a second prepare returns the first entry, a stale transition answers null, neither records evidence (issue 36)', async () => {
    // Its own database: entries of no governed run would fail the shared one's evidence cross-check.
    const own = await provider.create();
    const store = prismaGovernanceStore(own.db.prisma, { tenant: 'kittiwake', subject: 'alice' }).journal;
    const runId = `journal-cas-${provider.name}`;
    const entry = { operationKey: `${runId}:op`, runId, callId: 'c1', tool: 'create_restock_request', toolVersion: '1', argumentsDigest: 'd' };
    const step = (kind: string) => ({ body: () => evidenceBody({ kind: 'effect', at: new Date().toISOString(), runId, detail: kind }) });
    const first = await store.prepare(entry, '2026-01-01T00:00:00.000Z', step('prepared'));
    expect(await store.prepare({ ...entry, argumentsDigest: 'other' }, '2026-01-02T00:00:00.000Z', step('again'))).toEqual(first);
    const moved = await store.transition(entry.operationKey, 'prepared', 'dispatched', { attempts: 1 }, '2026-01-01T00:00:01.000Z', step('dispatched'));
    expect(moved).toMatchObject({ status: 'dispatched', attempts: 1, argumentsDigest: 'd', updatedAt: '2026-01-01T00:00:01.000Z' });
    expect(await store.transition(entry.operationKey, 'prepared', 'dispatched', { attempts: 2 }, '2026-01-01T00:00:02.000Z', step('stale'))).toBeNull();
    const done = await store.transition(entry.operationKey, 'dispatched', 'committed', { result: { ok: true }, resultDigest: 'r' }, '2026-01-01T00:00:03.000Z', step('committed'));
    expect(done).toMatchObject({ status: 'committed', result: { ok: true }, resultDigest: 'r', attempts: 1 });
    expect(await store.get(entry.operationKey)).toEqual(done);
    expect((await listEvidence(own.db.prisma, { runId })).map((e) => e.body.detail)).toEqual(['prepared', 'dispatched', 'committed']);
    await own.drop();
  });

  test('a denial reaches the model as a structured refusal and nothing is written', async () => {
    const started = await pausedRun();
    expect(await approve(started.approval!.id, 'bob', 'deny')).toMatchObject({ ok: true, status: 'denied' });
    const p = processOn(t.url);
    const done = await resumeGovernedRun(p.ctx, started.runId);
    expect(done.revalidation).toMatchObject({ status: 'denied' });
    expect(done.result.trajectory.filter(isToolRecord)[0]).toMatchObject({ executed: false, errorCode: 'approval_denied', blockedBy: 'policy' });
    expect(JSON.stringify(done.result.modelInputs.at(-1))).toContain('approval_denied');
    expect(p.env.ledger.records()).toHaveLength(0);
    await p.db.close();
  });

  test('refuses self-approval, a reviewer of another tenant, a viewer, and a second vote', async () => {
    const started = await pausedRun();
    const id = started.approval!.id;
    expect(await approve(id, 'alice')).toMatchObject({ ok: false, refusal: 'self_approval' });
    expect(await approve(id, 'carol')).toMatchObject({ ok: false, refusal: 'not_reviewer_for_tenant' });
    expect(await approve(id, 'vic')).toMatchObject({ ok: false, refusal: 'not_reviewer_for_tenant' });
    expect(await approve(id, 'bob')).toMatchObject({ ok: true });
    expect(await approve(id, 'erin')).toMatchObject({ ok: false, refusal: 'already_decided' });
    expect((await getApprovalOrThrow(t.db.prisma, id)).decisions).toHaveLength(1);
  });

  test('records who approved or denied what and why, and every refused decision, in the run\'s evidence chain', async () => {
    const started = await pausedRun();
    const id = started.approval!.id;
    expect(await approve(id, 'alice')).toMatchObject({ ok: false, refusal: 'self_approval' });
    expect(await approve(id, 'bob')).toMatchObject({ ok: true });
    expect(await approve(id, 'erin', 'deny')).toMatchObject({ ok: false, refusal: 'already_decided' });
    const events = (await listEvidence(t.db.prisma, { runId: started.runId })).map((e) => e.body);
    const decided = events.filter((e) => e.kind === 'approval_decided');
    expect(decided).toEqual([expect.objectContaining({ actor: 'bob', decision: 'approve', callId: started.approval!.callId, tool: 'create_restock_request', detail: expect.stringContaining('reason: bob says approve') })]);
    expect(events.filter((e) => e.kind === 'approval_refused').map((e) => [e.actor, e.decision])).toEqual([
      ['alice', 'self_approval'],
      ['erin', 'already_decided'],
    ]);
    expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
  });

  test.each([
    ['arguments', 'the stored proposal was edited', 'digest'],
    ['policyVersion', 'the policy file changed', 'policyVersion'],
    ['schemaDigest', 'the tool schema changed', 'schemaDigest'],
  ])('refuses a stale approval (%s: %s) and names the field', async (_what, _why, field) => {
    const started = await pausedRun();
    await approve(started.approval!.id, 'bob');
    let options: Parameters<typeof processOn>[1] = {};
    if (field === 'digest') {
      const row = await t.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: started.approval!.id } });
      await t.db.prisma.approvalRequest.update({ where: { id: row.id }, data: { proposal: row.proposal.replace('900', '9000') } });
    }
    if (field === 'policyVersion') options = { policy: parsePolicy(`${fs.readFileSync(policyFile, 'utf8')}\n`) };
    if (field === 'schemaDigest') {
      options = {
        executor: (env) => {
          const inner = new LocalToolExecutor(env);
          return Object.assign(Object.create(inner) as LocalToolExecutor, {
            listSpecs: async () => (await inner.listSpecs()).map((s) => (s.name === 'create_restock_request' ? { ...s, description: `${s.description} (v2)` } : s)),
          });
        },
      };
    }
    const p = processOn(t.url, options);
    const done = await resumeGovernedRun(p.ctx, started.runId);
    expect(done.revalidation).toMatchObject({ status: 'stale', field });
    expect(done.result.trajectory.filter(isToolRecord)[0]).toMatchObject({ executed: false, errorCode: 'approval_stale' });
    expect(p.env.ledger.records()).toHaveLength(0);
    expect((await getApprovalOrThrow(t.db.prisma, started.approval!.id)).status).toBe('stale');
    await p.db.close();
  });

  test('dispatches exactly the approved call: a checkpoint whose pending call was edited is refused as stale, naming the field', async () => {
    const started = await pausedRun();
    await approve(started.approval!.id, 'bob');
    // Edit the stored checkpoint: `awaiting` still matches the approval, the call to be sent does not.
    const row = await t.db.prisma.governedRun.findUniqueOrThrow({ where: { runId: started.runId } });
    const result = JSON.parse(row.result) as { checkpoint: { pendingCalls: { arguments: unknown }[] } };
    result.checkpoint.pendingCalls[0]!.arguments = { sku: 'SKU-2003', quantity: 450, priority: 'urgent' };
    await t.db.prisma.governedRun.update({ where: { runId: started.runId }, data: { result: JSON.stringify(result) } });
    const p = processOn(t.url);
    const done = await resumeGovernedRun(p.ctx, started.runId);
    expect(done.revalidation).toMatchObject({ status: 'stale', field: 'arguments' });
    expect(done.result.trajectory.filter(isToolRecord)[0]).toMatchObject({ executed: false, errorCode: 'approval_stale', policy: { resolution: 'stale' } });
    expect(p.env.ledger.records()).toHaveLength(0);
    expect(await p.ctx.store.journal.list({ runId: started.runId })).toHaveLength(0);
    expect(await getApprovalOrThrow(t.db.prisma, started.approval!.id)).toMatchObject({ status: 'stale', outcomeDetail: 'at dispatch: arguments changed' });
    await p.db.close();
  });

  test('an approval that expired before resume is refused as expired, and an expired request cannot be approved', async () => {
    const started = await pausedRun();
    await approve(started.approval!.id, 'bob');
    const later = new Date(Date.parse(started.approval!.proposal.expiresAt) + 1000);
    const p = processOn(t.url, { now: () => later });
    const done = await resumeGovernedRun(p.ctx, started.runId);
    expect(done.revalidation).toMatchObject({ status: 'expired' });
    expect(done.result.trajectory.filter(isToolRecord)[0]).toMatchObject({ errorCode: 'approval_expired' });
    await p.db.close();

    const other = await pausedRun();
    expect(await approve(other.approval!.id, 'bob', 'approve', new Date(Date.parse(other.approval!.proposal.expiresAt) + 1))).toMatchObject({ ok: false, refusal: 'expired', status: 'expired' });
  });

  test('50 concurrent approvals of one request record exactly one decision', async () => {
    const started = await pausedRun();
    const id = started.approval!.id;
    const reviewers = ['bob', 'erin'];
    // PostgreSQL: 50 calls over 5 separate connection pools at once; SQLite serialises the same calls.
    // SQLite has one writer: the same 50 calls contend one after another through one handle.
    const handles = Array.from({ length: provider.name === 'postgres' ? 5 : 1 }, () => openDatabase(t.url));
    const one = async (i: number) => {
      const h = handles[i % handles.length]!;
      const reviewer = (await getIdentity(h.prisma, reviewers[i % 2]!))!;
      return decideApproval(h.prisma, { id, reviewer, verdict: 'approve', reason: `call ${i}`, now: new Date() });
    };
    try {
      const calls = Array.from({ length: 50 }, (_, i) => i);
      const outcomes = [];
      if (provider.name === 'postgres') outcomes.push(...(await Promise.all(calls.map(one))));
      else for (const i of calls) outcomes.push(await one(i));
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      const losers = outcomes.filter((o) => !o.ok);
      expect(losers).toHaveLength(49);
      for (const l of losers) expect(l).toMatchObject({ ok: false, refusal: expect.stringMatching(/already_decided|already_voted/) });
      const req = await getApprovalOrThrow(t.db.prisma, id);
      expect(req.status).toBe('approved');
      expect(req.decisions).toHaveLength(1);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });

  test('the stored evidence chain verifies, and detects an edited event', async () => {
    const before = await verifyStoredChain(t.db.prisma);
    expect(before.ok).toBe(true);
    const events = await listEvidence(t.db.prisma);
    expect(events.some((e) => e.body.kind === 'policy_decision')).toBe(true);
    expect(events.some((e) => e.body.kind === 'effect' && e.body.effectStatus === 'committed')).toBe(true);
    expect(JSON.stringify(events)).not.toContain('SKU-2003');
    const victim = events.find((e) => e.body.kind === 'policy_decision')!;
    const where = { chain_seq: { chain: victim.chain, seq: victim.seq } };
    const row = await t.db.prisma.evidenceEvent.findUniqueOrThrow({ where });
    await t.db.prisma.evidenceEvent.update({ where, data: { body: JSON.stringify({ ...victim.body, decision: 'allow' }) } });
    expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, chain: victim.chain, seq: victim.seq });
    await t.db.prisma.evidenceEvent.update({ where, data: { body: row.body } });
    expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
  });

  describe('tampering that used to verify as intact', () => {
    /** A fresh run's chain to tamper with, and a way to put the database back. */
    async function tamperable() {
      const p = processOn(t.url, { script: [{ calls: [['create_restock_request', { sku: 'SKU-2003', quantity: 20 }]] }, { text: 'ok' }] });
      const out = await startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: 'restock' } });
      await p.db.close();
      const rows = await t.db.prisma.evidenceEvent.findMany({ where: { chain: out.runId }, orderBy: { seq: 'asc' } });
      expect(rows.length).toBeGreaterThan(3);
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
      const restore = async () => {
        await t.db.prisma.evidenceEvent.deleteMany({ where: { chain: out.runId } });
        await t.db.prisma.evidenceEvent.createMany({ data: rows });
        expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
      };
      return { runId: out.runId, rows, restore };
    }

    test('deleting the last rows of a chain is detected, naming the first missing event', async () => {
      const { runId, rows, restore } = await tamperable();
      const last = rows.at(-1)!.seq;
      await t.db.prisma.evidenceEvent.deleteMany({ where: { chain: runId, seq: { gte: last - 1 } } });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, chain: runId, seq: last - 1, reason: expect.stringContaining('deleted') });
      await restore();
    });

    test('a forged event with every later hash recomputed is detected at the forged event', async () => {
      const { runId, rows, restore } = await tamperable();
      let prev = rows[0]!.prevHash;
      for (const r of rows) {
        const body = JSON.parse(r.body) as Parameters<typeof eventHash>[2];
        const forgedBody = r.seq === 2 ? { ...body, decision: 'allow', rule: 'forged' } : body;
        const hash = eventHash(r.seq, prev, forgedBody);
        await t.db.prisma.evidenceEvent.update({ where: { chain_seq: { chain: runId, seq: r.seq } }, data: { prevHash: prev, hash, body: JSON.stringify(forgedBody) } });
        prev = hash;
      }
      await t.db.prisma.evidenceChain.update({ where: { chain: runId }, data: { hash: prev } });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, chain: runId, seq: 2 });
      await t.db.prisma.evidenceChain.update({ where: { chain: runId }, data: { hash: rows.at(-1)!.hash } });
      await restore();
    });

    test('editing the run id column of an event is detected', async () => {
      const { runId, rows, restore } = await tamperable();
      await t.db.prisma.evidenceEvent.update({ where: { chain_seq: { chain: runId, seq: 3 } }, data: { runId: 'someone-else' } });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, chain: runId, seq: 3, reason: expect.stringContaining('run id column') });
      expect(rows[2]!.runId).toBe(runId);
      await restore();
    });

    test('deleting a whole sealed chain with its head is detected by the anchor', async () => {
      const { runId, rows, restore } = await tamperable();
      // Chains are sealed with their first event: the sweeper has nothing left to seal.
      expect(await sealEvidenceChains(t.db.prisma)).toBe(0);
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true, unsealed: 0 });
      const head = await t.db.prisma.evidenceChain.findUniqueOrThrow({ where: { chain: runId } });
      await t.db.prisma.evidenceEvent.deleteMany({ where: { chain: runId } });
      await t.db.prisma.evidenceChain.delete({ where: { chain: runId } });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, reason: expect.stringContaining('deleted') });
      await t.db.prisma.evidenceChain.create({ data: head });
      expect(rows.length).toBeGreaterThan(0);
      await restore();
    });
  });

  describe('evidence a database edit cannot quietly cut (issue 22 §5)', () => {
    const head = (chain: string) => t.db.prisma.evidenceChain.findUniqueOrThrow({ where: { chain } });

    test('(a) a governed run whose whole chain and head were deleted before any sweep is detected (observed: intact)', async () => {
      const p = processOn(t.url, { script: [{ calls: [['create_restock_request', { sku: 'SKU-2003', quantity: 20 }]] }, { text: 'ok' }] });
      const out = await startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: 'restock' } });
      await p.db.close();
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true, unsealed: 0 });
      const rows = await t.db.prisma.evidenceEvent.findMany({ where: { chain: out.runId } });
      const saved = await head(out.runId);
      await t.db.prisma.evidenceEvent.deleteMany({ where: { chain: out.runId } });
      await t.db.prisma.evidenceChain.delete({ where: { chain: out.runId } });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, reason: expect.stringContaining('deleted') });
      // Even with the anchor put back as it was before the run, the run's records name what is missing.
      await t.db.prisma.evidenceChain.create({ data: saved });
      await t.db.prisma.evidenceEvent.createMany({ data: rows });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
    });

    test('(b) deleting the last event of a chain and restoring its older head is detected (observed: intact)', async () => {
      const started = await pausedRun();
      const older = await head(started.runId);
      expect(await approve(started.approval!.id, 'bob')).toMatchObject({ ok: true });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
      const newer = await head(started.runId);
      const last = await t.db.prisma.evidenceEvent.findUniqueOrThrow({ where: { chain_seq: { chain: started.runId, seq: newer.seq } } });
      expect(JSON.parse(last.body)).toMatchObject({ kind: 'approval_decided', actor: 'bob' });
      await t.db.prisma.evidenceEvent.delete({ where: { chain_seq: { chain: started.runId, seq: newer.seq } } });
      await t.db.prisma.evidenceChain.update({ where: { chain: started.runId }, data: older });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, chain: started.runId, reason: expect.stringContaining('approval_decided') });
      await t.db.prisma.evidenceEvent.create({ data: last });
      await t.db.prisma.evidenceChain.update({ where: { chain: started.runId }, data: newer });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
    });

    test('(c) deleting the newest chain and restoring an older anchor is detected; a whole-database rollback only by the witness', async () => {
      const anchorBefore = await t.db.prisma.evidenceAnchor.findUniqueOrThrow({ where: { id: 'root' } });
      const p = processOn(t.url, { script: [{ calls: [['create_restock_request', { sku: 'SKU-2003', quantity: 20 }]] }, { text: 'ok' }] });
      const out = await startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: 'restock' } });
      await p.db.close();
      const anchorAfter = await t.db.prisma.evidenceAnchor.findUniqueOrThrow({ where: { id: 'root' } });
      expect(anchorAfter.count).toBe(anchorBefore.count + 1);
      // The witness outside the database has the newest anchor.
      const witness = await witnessForDatabase(t.db.prisma, WITNESS);
      expect(witness).toMatchObject({ count: anchorAfter.count, hash: anchorAfter.hash });
      expect(await verifyStoredChain(t.db.prisma, undefined, { witness })).toMatchObject({ ok: true });

      const events = await t.db.prisma.evidenceEvent.findMany({ where: { chain: out.runId } });
      const chainRow = await head(out.runId);
      await t.db.prisma.evidenceEvent.deleteMany({ where: { chain: out.runId } });
      await t.db.prisma.evidenceChain.delete({ where: { chain: out.runId } });
      await t.db.prisma.evidenceAnchor.update({ where: { id: 'root' }, data: anchorBefore });
      // The run, its journal entry and its ledger record remain, with no evidence.
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: false, chain: out.runId, reason: expect.stringContaining('no evidence') });

      // The rest of the database rolled back as well: consistent inside, older than the witness.
      const run = await t.db.prisma.governedRun.findUniqueOrThrow({ where: { runId: out.runId } });
      const journal = await t.db.prisma.effectJournalEntry.findMany({ where: { runId: out.runId } });
      const ledger = await t.db.prisma.restockLedgerRecord.findMany({ where: { runId: out.runId } });
      expect(journal.length).toBeGreaterThan(0);
      await t.db.prisma.effectJournalEntry.deleteMany({ where: { runId: out.runId } });
      await t.db.prisma.restockLedgerRecord.deleteMany({ where: { runId: out.runId } });
      await t.db.prisma.governedRun.delete({ where: { runId: out.runId } });
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
      expect(await verifyStoredChain(t.db.prisma, undefined, { witness })).toMatchObject({ ok: false, chain: '(witness)', reason: expect.stringContaining('rolled back') });

      await t.db.prisma.governedRun.create({ data: run });
      await t.db.prisma.effectJournalEntry.createMany({ data: journal });
      await t.db.prisma.restockLedgerRecord.createMany({ data: ledger });
      await t.db.prisma.evidenceChain.create({ data: chainRow });
      await t.db.prisma.evidenceEvent.createMany({ data: events });
      await t.db.prisma.evidenceAnchor.update({ where: { id: 'root' }, data: anchorAfter });
      expect(await verifyStoredChain(t.db.prisma, undefined, { witness })).toMatchObject({ ok: true });
    });

    test('a witness not signed with the evidence key is refused', async () => {
      const witness = await witnessForDatabase(t.db.prisma, WITNESS);
      expect(await verifyStoredChain(t.db.prisma, undefined, { witness: { ...witness, signature: 'f'.repeat(64) } })).toMatchObject({ ok: false, reason: expect.stringContaining('not signed') });
    });
  });

  test('concurrent appends to many runs and to one run keep every chain linear and verifiable', async () => {
    const handles = Array.from({ length: provider.name === 'postgres' ? 5 : 1 }, () => openDatabase(t.url));
    try {
      const appends = Array.from({ length: 60 }, (_, i) =>
        new PrismaEvidenceSink(handles[i % handles.length]!.prisma).append(evidenceBody({ kind: 'policy_decision', at: new Date().toISOString(), runId: i % 3 === 0 ? 'shared-run' : `run-${i}` })),
      );
      const events = await Promise.all(appends);
      const shared = events.filter((e) => e.chain === 'shared-run').map((e) => e.seq).sort((a, b) => a - b);
      expect(shared).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await verifyStoredChain(t.db.prisma)).toMatchObject({ ok: true });
      // Concurrent witness writes are coalesced, yet the witness holds the anchor after the last commit.
      const anchor = await t.db.prisma.evidenceAnchor.findUniqueOrThrow({ where: { id: 'root' } });
      expect(await witnessForDatabase(t.db.prisma, WITNESS)).toMatchObject({ count: anchor.count, hash: anchor.hash });
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});

// Issue 36, 50 concurrent governed starts: a start's ~40 statements went through Prisma at ~0.5 ms
// (raw) to ~0.8 ms (model) of CPU each. An evidence append and a journal move now send theirs on the
// pool client their transaction holds (PostgreSQL); on SQLite they stay raw statements through Prisma.
describe.each(providers)('statements of an evidence append and a journal move on $name', (provider) => {
  const test = provider.skipReason ? it.skip : it;
  let t: TestDatabase;
  beforeAll(async () => {
    if (provider.skipReason) return;
    t = await provider.create();
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The database's Prisma client, counting the operations (model or raw) sent through it. */
  function counting() {
    const counter = { n: 0 };
    const prisma = t.db.prisma.$extends({
      query: {
        async $allOperations({ args, query }: { args: unknown; query: (args: unknown) => Promise<unknown> }) {
          counter.n += 1;
          return query(args);
        },
      },
    }) as unknown as Database['prisma'];
    return { prisma, counter };
  }

  test('none goes through Prisma on PostgreSQL; the chain verifies and the times are UTC whatever the zone', async () => {
    const { prisma, counter } = counting();
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Auckland'; // node-postgres reads and writes times in the local zone unless told
    try {
      const sink = new PrismaEvidenceSink(prisma, undefined, null);
      const journal = new PrismaJournalStore(prisma, undefined, { tenant: 'kittiwake', subject: 'alice' });
      const at = '2026-12-07T10:00:00.123Z';
      await sink.append(evidenceBody({ kind: 'run_started', at, runId: 'stmt-run-1', actor: 'alice' }));
      await sink.append(evidenceBody({ kind: 'run_finished', at, runId: 'stmt-run-1', actor: 'alice', decision: 'COMPLETED' }));
      // Each step with its effect event, in the same transaction, as the journaled executor records them.
      const effect = { body: (e: { operationKey: string; status: string }) => evidenceBody({ kind: 'effect', at, runId: 'stmt-run-1', operationKey: e.operationKey, effectStatus: e.status as 'prepared' }) };
      const prepared = await journal.prepare({ operationKey: 'stmt-op-1', runId: 'stmt-run-1', callId: 'c1', tool: 'create_restock_request', toolVersion: '1', argumentsDigest: 'd1' }, at, effect);
      const moved = await journal.transition('stmt-op-1', 'prepared', 'dispatched', { attempts: 1 }, '2026-12-07T10:00:01.456Z', effect);
      if (provider.name === 'postgres') expect(counter.n).toBe(0);
      else expect(counter.n).toBeGreaterThan(0);
      expect(prepared).toMatchObject({ status: 'prepared', attempts: 0, createdAt: at, updatedAt: at });
      expect(moved).toMatchObject({ status: 'dispatched', attempts: 1, createdAt: at, updatedAt: '2026-12-07T10:00:01.456Z' });
      const stored = await t.db.prisma.effectJournalEntry.findUniqueOrThrow({ where: { operationKey: 'stmt-op-1' } });
      expect(stored.updatedAt.toISOString()).toBe('2026-12-07T10:00:01.456Z');
      expect(await journal.transition('stmt-op-1', 'prepared', 'dispatched', {}, at)).toBeNull(); // compare-and-set: no entry at `from`
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const events = await listEvidence(t.db.prisma, { runId: 'stmt-run-1' });
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    const verified = await verifyStoredChain(t.db.prisma);
    expect(verified.ok, JSON.stringify(verified).slice(0, 600)).toBe(true);
  });
});

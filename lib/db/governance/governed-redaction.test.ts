/**
 * Redaction at rest of governed runs' records (issue 33) on SQLite and PostgreSQL. A governed run of a
 * tenant that keeps cards, e-mail addresses and IBANs out of storage pauses on an approval with a card
 * number in its question and an e-mail address in the arguments of the call it waits on; a reviewer's
 * reason holds a card number. A database dump taken while it waits, after it is approved and the
 * call dispatched, and after erasure holds none of the values — the governed run's spec, result and
 * resume checkpoint, the paused stored run's checkpoint, the approval's proposal, the decision, the
 * journal's result and the restock ledger's record — while the resume, in a fresh process, still
 * dispatches the real arguments under an approval bound to the real proposal's digest. The real
 * content is kept only sealed, and only until the dispatch.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { resumeGovernedRun, startGovernedRun, type AgentDriver, type GovernedContext } from '../../governance/governed-run';
import { loadPolicyFile } from '../../governance/policy-file';
import { OPERATOR_SCOPES, type Principal } from '../../governance/principal';
import { resolveConfig } from '../../harness/config';
import type { ToolExecutor } from '../../harness/executor';
import { scriptedModel, type TurnSpec } from '../../harness/testing/scripted-model';
import { isToolRecord } from '../../harness/types';
import { createStockroomAgent } from '../../stockroom/agent';
import { clearDatasetCache, loadDataset } from '../../stockroom/dataset/load-dataset';
import type { Dataset } from '../../stockroom/dataset/types';
import { StockroomEnvironment } from '../../stockroom/environment';
import { LocalToolExecutor } from '../../stockroom/executor/local-executor';
import { writeFixtureDataset } from '../../stockroom/testing/fixture-dataset';
import { openDatabase } from '../core/client';
import { eraseContent } from './erasure';
import { approvalRedactions, decideApproval, getApprovalOrThrow, listApprovals } from './governance-approvals';
import { verifyStoredChain } from './governance-evidence';
import { addMembership, getIdentity } from './governance-members';
import { cancelGovernedRun, findGovernedRun } from './governance-runs';
import { prismaGovernanceStore } from './governance-store';
import { addRunLabel, labelsOfRun } from '../review/labels';
import { rewriteRedaction } from '../runs/redaction-rewrite';
import { getRunOrThrow, getRunSummary } from '../runs/runs-read';
import { storeRunSoFar } from '../../runs/store';
import { replaceRun, saveRun } from '../runs/runs-write';
import { makeMeta } from '../testing/run-fixtures';
import { type TestDatabase } from '../testing/test-databases';
import { describeOnDatabases } from '../testing/on-databases';

const CARD = '4111 1111 1111 1111';
const CARD_DIGITS = CARD.replace(/ /g, '');
const EMAIL = 'hesper.lune@example.org';
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const QUERY = `Restock SKU-2003 for the customer paying with card ${CARD}`;
/** The call the run pauses on: this test's policy puts policy-document searches behind a reviewer. */
const ARGS = { query: `refund rules for ${EMAIL}` };
const RESTOCK = { sku: 'SKU-2003', quantity: 100 };
/** The restock's reference (RSR-0001): the tenant's custom class, so the journal's result has something to lose. */
const VALUES = [CARD, CARD_DIGITS, EMAIL, IBAN, IBAN.replace(/ /g, ''), 'RSR-0001'];

const policyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-governed-redaction-'));
const policyFile = path.join(policyDir, 'policy.json');
const base = JSON.parse(fs.readFileSync('config/policy.json', 'utf8')) as { tenants: Record<string, Record<string, unknown>>; tools: Record<string, Record<string, unknown>> };
fs.writeFileSync(
  policyFile,
  JSON.stringify({
    ...base,
    tenants: { ...base.tenants, kittiwake: { ...base.tenants.kittiwake, redaction: { classes: ['card', 'iban', 'email'], patterns: [{ name: 'restock_ref', regex: 'RSR-\\d{4}' }] } } },
    tools: { ...base.tools, search_policy_docs: { ...base.tools.search_policy_docs, rules: [{ id: 'docs-reviewed', effect: 'approval_required', message: 'policy searches are reviewed' }] } },
  }),
);
const previous = process.env.STOCKROOM_POLICY_FILE;

let dir: string;
let dataset: Dataset;
beforeAll(() => {
  process.env.STOCKROOM_POLICY_FILE = policyFile;
  dir = writeFixtureDataset();
  dataset = loadDataset(dir);
});
afterAll(() => {
  if (previous === undefined) delete process.env.STOCKROOM_POLICY_FILE;
  else process.env.STOCKROOM_POLICY_FILE = previous;
  clearDatasetCache();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(policyDir, { recursive: true, force: true });
});

const turns: TurnSpec[] = [{ calls: [['search_policy_docs', ARGS]] }, { calls: [['create_restock_request', RESTOCK]] }, { text: `Raised; refunds go to ${IBAN}.` }];
const alice: Principal = { subject: 'alice', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] };

/** A "process": its own database handle, environment and executor (which notes every call it is sent). */
function processOn(url: string) {
  const db = openDatabase(url);
  const env = new StockroomEnvironment(dataset, []);
  const local = new LocalToolExecutor(env);
  const sent: { name: string; args: unknown }[] = [];
  const executor: ToolExecutor = {
    transport: local.transport,
    listSpecs: () => local.listSpecs(),
    call: (name, args, context) => {
      sent.push({ name, args });
      return local.call(name, args, context);
    },
    reset: () => local.reset(),
    close: () => local.close(),
  };
  const agent = async (executor: ToolExecutor, policy: Parameters<AgentDriver['run']>[1]) => createStockroomAgent({ dataset, config: resolveConfig({}), executor, policy });
  const driver: AgentDriver = {
    run: async (ex, policy, operationKey, runId) => (await agent(ex, policy)).run(QUERY, null, { runId, operationKey, model: scriptedModel(turns) }),
    resume: async (ex, policy, operationKey, paused, resolution) => (await agent(ex, policy)).resume(paused, resolution, { operationKey, model: scriptedModel(turns) }),
  };
  const ctx: GovernedContext = { store: prismaGovernanceStore(db.prisma, { tenant: 'kittiwake', subject: 'alice' }), policy: loadPolicyFile(policyFile), executor, driver };
  return { db, env, ctx, sent };
}

function dump(t: TestDatabase, provider: string): string {
  if (provider === 'sqlite') return execFileSync('sqlite3', [t.url.replace(/^file:/, ''), '.dump'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return execFileSync('pg_dump', ['--data-only', t.url], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

function expectNoValues(text: string) {
  for (const value of VALUES) expect(text, `the dump holds ${value}: ${text.split('\n').filter((l) => l.includes(value)).map((l) => l.slice(0, 300)).join('\n')}`).not.toContain(value);
}

describeOnDatabases('governed runs redacted at rest on $name', ({ provider, test, db, t }) => {
  beforeAll(async () => {
    if (provider.skipReason) return;
    for (const id of ['alice', 'bob']) await db.prisma.user.create({ data: { id, name: id, email: `${id}@example.test` } });
    await addMembership(db.prisma, 'alice', 'kittiwake', 'admin');
    await addMembership(db.prisma, 'bob', 'kittiwake', 'reviewer');
  });

  /** A governed run paused on the restock's approval, stored as the dashboard stores it. */
  async function pausedRun() {
    const p = processOn(t.url);
    const out = await startGovernedRun(p.ctx, { principal: alice, runTenant: 'kittiwake', spec: { query: QUERY, tenant: 'kittiwake' } });
    await saveRun(out.result, makeMeta({ id: out.runId, tenant: 'kittiwake', createdBy: 'alice' }), db);
    await p.db.close();
    expect(out.result.status, JSON.stringify(out.result.trajectory).slice(0, 1500)).toBe('paused');
    return out;
  }

  test('paused on an approval, approved and dispatched: no dump holds the values, and the real arguments are dispatched', async () => {
    const started = await pausedRun();
    const approvalId = started.approval!.id;

    // Paused: the request shows reviewers the arguments redacted, and lists what was taken out.
    expectNoValues(dump(t, provider.name));
    const shown = await getApprovalOrThrow(db.prisma, approvalId);
    expect(shown.proposal.arguments).toEqual({ query: 'refund rules for [REDACTED:email]' });
    expect((await listApprovals(db.prisma, 'pending', new Date(), ['kittiwake']))[0]!.proposal.arguments).toEqual(shown.proposal.arguments);
    const request = await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } });
    expect(JSON.parse(request.redactions!)).toEqual([{ class: 'email', count: 1, where: 'proposal arguments' }]);
    // The request's page lists what its proposal and its run's question lost (in the request's tenant only).
    expect(await approvalRedactions(db.prisma, 'kittiwake', approvalId)).toEqual(
      expect.arrayContaining([{ class: 'email', count: 1, where: 'proposal arguments' }, { class: 'card', count: 1, where: 'spec' }]),
    );
    expect(await approvalRedactions(db.prisma, 'puffin', approvalId)).toEqual([]);
    expect(request.sealedArguments).toMatch(/^v1\./);
    // The governed run: spec, result and checkpoint redacted, the real ones sealed, what went listed.
    const row = await db.prisma.governedRun.findUniqueOrThrow({ where: { runId: started.runId } });
    expect(row.sealed).toMatch(/^v1\./);
    expect(row.spec).toContain('[REDACTED:card]');
    expect(JSON.parse(row.redactions!)).toEqual(expect.arrayContaining([{ class: 'card', count: 1, where: 'spec' }, expect.objectContaining({ class: 'email' })]));
    // The paused stored run's checkpoint is redacted too (a resume reads the governed run's sealed one).
    expect(JSON.stringify((await getRunOrThrow(started.runId, db)).run.checkpoint)).toContain('[REDACTED:email]');
    // The governance service reads the real run back (a resume in any process).
    expect((await findGovernedRun(db.prisma, started.runId))!.result.checkpoint!.awaiting.arguments).toEqual(ARGS);

    const bob = (await getIdentity(db.prisma, 'bob'))!;
    expect(await decideApproval(db.prisma, { id: approvalId, reviewer: bob, verdict: 'approve', reason: `checked card ${CARD} with the customer`, now: new Date() })).toMatchObject({ ok: true, status: 'approved' });
    expectNoValues(dump(t, provider.name));

    // A fresh process resumes: the approval re-validates against the real proposal and the real call is sent.
    const p = processOn(t.url);
    const done = await resumeGovernedRun(p.ctx, started.runId);
    expect(done.revalidation).toMatchObject({ status: 'approved' });
    expect(done.result).toMatchObject({ status: 'finished', terminationReason: 'COMPLETED' });
    expect(done.result.trajectory.filter(isToolRecord)[0]).toMatchObject({ executed: true, policy: { resolution: 'approved' } });
    expect(p.sent).toEqual([{ name: 'search_policy_docs', args: ARGS }, { name: 'create_restock_request', args: RESTOCK }]);
    await p.db.close();
    await replaceRun(done.result, { ...makeMeta({ tenant: 'kittiwake', createdBy: 'alice' }), id: started.runId }, db);

    // Dispatched: the sealed copies are gone, nothing anywhere holds the values.
    expectNoValues(dump(t, provider.name));
    expect((await db.prisma.governedRun.findUniqueOrThrow({ where: { runId: started.runId } })).sealed).toBeNull();
    expect((await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } })).sealedArguments).toBeNull();
    const entry = await db.prisma.effectJournalEntry.findFirstOrThrow({ where: { runId: started.runId } });
    expect(entry.result).toContain('[REDACTED:restock_ref]');
    expect(JSON.parse(entry.redactions!)).toEqual([{ class: 'restock_ref', count: 1, where: 'journal result' }]);
    expect(JSON.parse((await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } })).redactions!)).toEqual(
      expect.arrayContaining([{ class: 'card', count: 1, where: 'reviewer reason' }]),
    );
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true });

    // Erased: the governed records go with the run's content, and the audit stays intact.
    await eraseContent('kittiwake', { run: started.runId }, 'alice', db);
    const erased = await db.prisma.governedRun.findUniqueOrThrow({ where: { runId: started.runId } });
    expect([erased.spec, erased.result, erased.sealed]).toEqual([JSON.stringify({ erased: true }), JSON.stringify({ erased: true }), null]);
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true, erased: 1 });
  });

  test("a reviewer's label given while the run is paused stays when the resumed run is stored, with its comment's redactions", async () => {
    const started = await pausedRun();
    const label = await addRunLabel('kittiwake', { runId: started.runId, step: null, verdict: 'fail', category: null, score: null, comment: `asked for card ${CARD}`, by: { id: 'bob', name: 'bob' } }, db);
    const bob = (await getIdentity(db.prisma, 'bob'))!;
    await decideApproval(db.prisma, { id: started.approval!.id, reviewer: bob, verdict: 'approve', reason: 'fine', now: new Date() });
    const p = processOn(t.url);
    const done = await resumeGovernedRun(p.ctx, started.runId);
    await p.db.close();
    // Stored the way the dashboard and the job worker store a resumed run (lib/runs/governed-resume.ts).
    await storeRunSoFar(done.result, { ...makeMeta({ tenant: 'kittiwake', createdBy: 'alice' }), id: started.runId }, db);

    expect((await labelsOfRun('kittiwake', started.runId, db)).map((l) => l.id)).toEqual([label.id]);
    const summary = (await getRunSummary(started.runId, db))!;
    expect(summary.status).toBe('finished');
    expect(summary.redactions).toEqual(expect.arrayContaining([{ class: 'card', count: 1, where: 'label comment' }]));
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true });
  });

  test('redact --rewrite takes the classes into a run paused before they applied, keeping the real content sealed for its resume', async () => {
    const withClasses = fs.readFileSync(policyFile, 'utf8');
    const policy = JSON.parse(withClasses) as { tenants: Record<string, Record<string, unknown>> };
    fs.writeFileSync(policyFile, JSON.stringify({ ...policy, tenants: { ...policy.tenants, kittiwake: { ...policy.tenants.kittiwake, redaction: undefined } } }));
    let started;
    try {
      started = await pausedRun();
      const before = dump(t, provider.name);
      expect(before).toContain(CARD);
      expect(before).toContain(EMAIL);
    } finally {
      fs.writeFileSync(policyFile, withClasses);
    }

    const report = await rewriteRedaction('kittiwake', { by: 'alice', db });
    expect(report).toMatchObject({ left: 0, classes: ['card', 'email', 'iban', 'restock_ref'] });
    expect(report.governed).toBeGreaterThanOrEqual(2);
    expectNoValues(dump(t, provider.name));
    const row = await db.prisma.governedRun.findUniqueOrThrow({ where: { runId: started.runId } });
    expect(row.spec).toContain('[REDACTED:card]');
    expect(row.sealed).toMatch(/^v1\./);
    const request = await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: started.approval!.id } });
    expect(JSON.parse(request.proposal).arguments).toEqual({ query: 'refund rules for [REDACTED:email]' });
    expect(request.sealedArguments).toMatch(/^v1\./);
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true });

    // The governance service reads the real values back, as a resume in any process does (resuming
    // itself would find the approval stale: the policy file changed while the run waited).
    expect((await getApprovalOrThrow(db.prisma, started.approval!.id, true)).proposal.arguments).toEqual(ARGS);
    expect((await findGovernedRun(db.prisma, started.runId))!.result.checkpoint!.awaiting.arguments).toEqual(ARGS);
    expect(JSON.stringify((await findGovernedRun(db.prisma, started.runId))!.spec)).toContain(CARD);
    await cancelGovernedRun(db.prisma, started.runId, 'alice');
    await db.prisma.run.update({ where: { id: started.runId }, data: { status: 'finished' } });
  });

  test('a paused run cancelled keeps no sealed content, and erasing its subject covers its governed records', async () => {
    const started = await pausedRun();
    expect(await cancelGovernedRun(db.prisma, started.runId, 'alice')).toBe(true);
    expect((await db.prisma.governedRun.findUniqueOrThrow({ where: { runId: started.runId } })).sealed).toBeNull();
    expect((await db.prisma.approvalRequest.findFirstOrThrow({ where: { runId: started.runId } })).sealedArguments).toBeNull();
    await db.prisma.run.update({ where: { id: started.runId }, data: { status: 'finished' } });
    const receipt = await eraseContent('kittiwake', { subject: 'alice' }, 'alice', db);
    expect(receipt.runs.find((r) => r.runId === started.runId)?.erased).toMatchObject({ GovernedRun: 1, ApprovalRequest: 1 });
    expect((await db.prisma.approvalRequest.findFirstOrThrow({ where: { runId: started.runId } })).proposal).toBe(JSON.stringify({ erased: true }));
    expectNoValues(dump(t, provider.name));
    expect(await verifyStoredChain(db.prisma)).toMatchObject({ ok: true });
  });
});

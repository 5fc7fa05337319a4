/**
 * Every server action and every mutating route refuses a caller without a session and a caller
 * whose role is too low, and writes nothing when it does. Actions are discovered from the
 * `'use server'` files of lib/actions and routes from app/api, so a new one is covered (or this
 * test fails until it is listed as public with a reason).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, redirectedTo, setUpActionEnv, TEST_PASSWORD, TEST_USERS, type ActionEnv } from './testing/action-env';
import { API_DIR, discoverActions, discoverRoutes } from './testing/discover';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());


/** Actions a caller without a session must be able to use, and why. */
const PUBLIC_ACTIONS: Record<string, string> = {
  signInAction: 'signing in is how a caller gets a session',
  signOutAction: 'it only ends the caller’s own session',
};
/** Actions any member may use (they need a session but no particular role), and why. */
const MEMBER_ACTIONS: Record<string, string> = {
  chooseTenantAction: 'choosing which of one’s own tenants to work in writes only a cookie, checked against the memberships',
};
/** Route handlers that do not take a dashboard session, and why. */
const PUBLIC_MUTATING_ROUTES: Record<string, string> = {
  'auth/[...all] POST': 'better-auth’s own sign-in/sign-out endpoints (sign-up is disabled)',
  'otlp/v1/traces POST': 'takes a tenant’s ingest bearer token, not a session (safeBearerRoute; app/api/otlp/v1/traces/route.test.ts)',
  'otlp/v1/logs POST': 'takes a tenant’s ingest bearer token, not a session (safeBearerRoute; app/api/otlp/v1/producers.test.ts)',
};

/** Read routes anyone may call without a session, and why. */
const PUBLIC_READ_ROUTES: Record<string, string> = {
  health: 'a load balancer’s check has no session; it names no tenant, run or user, only probe results and queue counts (lib/jobs/health-pg.test.ts)',
};

type Action = (input: unknown) => Promise<{ ok: boolean; code?: string; error?: string }>;

const actions = discoverActions();
const routes = discoverRoutes();

let env: ActionEnv;
/** Valid input for each action (so a skipped check would reach the handler and write). */
let inputs: Record<string, unknown> = {};
let snapshot: () => Promise<string>;

beforeAll(async () => {
  env = await setUpActionEnv();
  const { getDb } = await import('../db/core/client');
  const { PrismaJournalStore } = await import('../db/governance/governance-journal');
  const { runGovernedAction } = await import('./run-governed');
  const { runOneAction } = await import('./run-one');
  const prisma = getDb().prisma;

  env.as('admin');
  const paused = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
  if (!paused.ok || !paused.data.approvalId) throw new Error(`setup: the governed S024 run did not pause: ${JSON.stringify(paused)}`);
  const plain = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
  if (!plain.ok) throw new Error('setup: plain run failed');
  const journal = new PrismaJournalStore(prisma);
  const key = `op:${paused.data.runId}:manual:create_restock_request@1`;
  await journal.prepare({ operationKey: key, runId: paused.data.runId, callId: 'manual', tool: 'create_restock_request', toolVersion: '1', argumentsDigest: 'x' }, new Date().toISOString());
  await journal.transition(key, 'prepared', 'dispatched', { attempts: 1 }, new Date().toISOString());
  await journal.transition(key, 'dispatched', 'unknown', { error: 'simulated crash' }, new Date().toISOString());
  const { createSuiteRun } = await import('../db/suites/suites');
  const suite = await createSuiteRun({ kind: 'matrix', tenant: 'kittiwake', config: {}, datasetName: 'stockroom', datasetHash: 'h', total: 0 });
  env.as(null);

  inputs = {
    cancelSuiteAction: { id: suite },
    stopRunAction: { id: plain.data.runId },
    runOneAction: { datasetId: 'bundled', caseId: 'S001' },
    startRunAction: { datasetId: 'bundled', caseId: 'S001' },
    replayRunAction: { runId: plain.data.runId, weaknesses: ['ambiguous_tool_desc'] },
    runGovernedAction: { datasetId: 'bundled', caseId: 'S024' },
    startSuiteAction: { datasetId: 'bundled' },
    startMatrixAction: { datasetId: 'bundled' },
    estimateMatrixAction: { datasetId: 'bundled', epochs: 2 },
    deleteRunAction: { runId: plain.data.runId },
    eraseRunAction: { runId: plain.data.runId },
    addWebhookAction: { url: 'https://hooks.example.com/stockroom', events: ['approval.requested'] },
    addEmailEndpointAction: { recipients: 'reviewers@example.com', smtpHost: 'smtp.example.com', smtpFrom: 'stockroom@example.com', events: ['approval.requested'] },
    removeWebhookAction: { endpointId: 'endpoint-1' },
    saveEvaluatorAction: { name: 'loops', kind: 'loop_findings' },
    removeEvaluatorAction: { evaluatorId: 'evaluator-1' },
    startBackfillAction: { evaluatorId: 'evaluator-1', from: '2026-01-01T00:00', to: '2026-01-02T00:00' },
    cancelBackfillAction: { backfillId: 'backfill-1' },
    saveAlertRuleAction: { name: 'errors', kind: 'error_share', threshold: 0.05 },
    removeAlertRuleAction: { ruleId: 'rule-1' },
    redeliverWebhookAction: { deliveryId: 'delivery-1' },
    decideApprovalAction: { id: paused.data.approvalId, verdict: 'approve', reason: 'within budget' },
    reconcileEffectAction: { operationKey: key },
    chooseTenantAction: { tenant: 'kittiwake' },
    setDemoFaultAction: { armed: true },
    refreshToolServersAction: { serverId: 'stockroom' },
    authorizeToolServerAction: { serverId: 'dashboard' },
    runCalibrationAction: { judge: 'fake' },
    addLabelAction: { runId: plain.data.runId, step: 1, verdict: 'fail', category: 'wrong_tool', score: 0.5, comment: 'looked up the wrong sku' },
    saveLabelSetAction: { verdicts: ['pass', 'fail', 'unsure'], categories: ['stale_data'] },
    addGoldenCaseAction: { runId: plain.data.runId, setName: 'from-runs', id: 'C1', category: 'product_search', query: 'q?', referenceAnswer: 'a.', expectedTools: [{ name: 'search_products', args: { query: 'x' } }], expectedFacts: ['SKU-1'] },
    importGoldenSetAction: { name: 'imported', jsonl: '{"id": "C1", "category": "c", "query": "q", "reference_answer": "a"}\n' },
  };

  // Everything an action could write, as one string: counts, statuses and versions.
  snapshot = async () =>
    JSON.stringify({
      runs: await prisma.run.findMany({ select: { id: true, status: true }, orderBy: { id: 'asc' } }),
      suites: await prisma.suiteRun.findMany({ select: { id: true, status: true }, orderBy: { id: 'asc' } }),
      governed: await prisma.governedRun.findMany({ select: { runId: true, status: true, stateVersion: true } }),
      approvals: await prisma.approvalRequest.findMany({ select: { id: true, status: true, stateVersion: true } }),
      decisions: await prisma.approvalDecision.count(),
      journal: await prisma.effectJournalEntry.findMany({ select: { operationKey: true, status: true } }),
      evidence: await prisma.evidenceEvent.count(),
      users: await prisma.user.count(),
      memberships: await prisma.membership.count(),
      faults: await prisma.demoFault.count(),
      calibrations: await prisma.judgeCalibration.count(),
      judgeCalls: await prisma.judgeCall.count(),
      labels: await prisma.runLabel.count(),
      labelSets: await prisma.labelSet.count(),
      goldenSets: await prisma.goldenSet.count(),
      evaluators: await prisma.evaluator.count(),
      alertRules: await prisma.alertRule.count(),
      backfills: await prisma.evaluatorBackfill.findMany({ select: { id: true, status: true } }),
    });
});
afterAll(async () => {
  await env?.cleanup();
});

describe('server actions', () => {
  it('finds the actions in lib/actions', () => {
    expect(actions.map((a) => a.name)).toEqual(expect.arrayContaining(['runOneAction', 'runGovernedAction', 'decideApprovalAction', 'reconcileEffectAction', 'deleteRunAction']));
  });

  const guarded = actions.filter((a) => !(a.name in PUBLIC_ACTIONS));
  describe.each(guarded)('$name ($file)', ({ file, name }) => {
    const load = async () => (await import(/* @vite-ignore */ `./${file.replace(/\.ts$/, '')}`))[name] as Action;

    it('has a valid sample input in this test, so a skipped check would reach the handler', () => {
      expect(inputs, `add a valid input for ${name} to this test`).toHaveProperty(name);
    });

    it('refuses a caller without a session and writes nothing', async () => {
      const action = await load();
      env.as(null);
      const before = await snapshot();
      for (const input of [inputs[name], {}, null]) {
        const res = await action(input);
        expect(res).toMatchObject({ ok: false, code: 'unauthenticated' });
      }
      expect(await snapshot()).toBe(before);
    });

    it.skipIf(name in MEMBER_ACTIONS)('refuses a viewer and writes nothing', async () => {
      const action = await load();
      env.as('viewer');
      const before = await snapshot();
      const res = await action(inputs[name]);
      expect(res).toMatchObject({ ok: false, code: 'forbidden' });
      expect(res.error).toMatch(/needs the (operator|reviewer|admin) role/);
      expect(await snapshot()).toBe(before);
    });
  });

  it('refuses a forged or expired session cookie like no session', async () => {
    const { runOneAction } = await import('./run-one');
    env.as(null);
    const headers = await import('next/headers');
    const spy = vi.spyOn(headers, 'headers').mockResolvedValue(new Headers({ cookie: 'better-auth.session_token=forged.value' }) as never);
    expect(await runOneAction(inputs.runOneAction as never)).toMatchObject({ ok: false, code: 'unauthenticated' });
    spy.mockRestore();
  });

  it('refuses roles that do not fit: a reviewer cannot start runs, an operator cannot review', async () => {
    const { runOneAction } = await import('./run-one');
    const { decideApprovalAction } = await import('./decide-approval');
    const before = await snapshot();
    env.as('reviewer');
    expect(await runOneAction(inputs.runOneAction as never)).toMatchObject({ ok: false, code: 'forbidden' });
    env.as('operator');
    expect(await decideApprovalAction(inputs.decideApprovalAction as never)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await snapshot()).toBe(before);
  });

  it('lets only an admin run the judge calibration, stored in their tenant', async () => {
    const { runCalibrationAction } = await import('./run-calibration');
    const { listCalibrations } = await import('../db/review/judge');
    const before = await snapshot();
    env.as('operator');
    expect(await runCalibrationAction({ judge: 'fake' })).toMatchObject({ ok: false, code: 'forbidden', error: expect.stringMatching(/admin/) });
    expect(await snapshot()).toBe(before);
    env.as('admin');
    expect(await runCalibrationAction({ judge: 'nonsense' })).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { judge: expect.any(Array) } });
    // A live judge the server holds no credentials for is refused, naming the variable, and nothing is written.
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect(await runCalibrationAction({ judge: 'anthropic:claude-x' })).toMatchObject({ ok: false, error: expect.stringContaining('ANTHROPIC_API_KEY') });
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
    expect(await snapshot()).toBe(before);
    const res = await runCalibrationAction({ judge: 'fake' });
    expect(res).toMatchObject({ ok: true });
    const id = (res as { data: { id: string } }).data.id;
    expect((await listCalibrations('kittiwake')).map((c) => c.id)).toContain(id);
    expect((await listCalibrations('other-depot')).map((c) => c.id)).not.toContain(id);
  });

  it('lets a reviewer label a run of their tenant (kept with who, in the evidence); an operator may not, another tenant finds no run', async () => {
    const { addLabelAction } = await import('./add-label');
    const { saveLabelSetAction } = await import('./save-label-set');
    const { getDb } = await import('../db/core/client');
    const input = inputs.addLabelAction as { runId: string };
    const before = await snapshot();
    env.as('operator');
    expect(await addLabelAction(input as never)).toMatchObject({ ok: false, code: 'forbidden' });
    env.as('outsider');
    expect(await addLabelAction(input as never)).toMatchObject({ ok: false, code: 'not_found' });
    env.as('reviewer');
    expect(await saveLabelSetAction(inputs.saveLabelSetAction as never)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await addLabelAction({ ...input, verdict: 'meh' } as never)).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { verdict: expect.any(Array) } });
    expect(await snapshot()).toBe(before);
    const res = await addLabelAction(input as never);
    expect(res).toMatchObject({ ok: true, data: { verdict: 'fail', step: 1, createdBy: env.ids.reviewer } });
    const events = await getDb().prisma.evidenceEvent.findMany({ where: { runId: input.runId } });
    expect(events.map((e) => JSON.parse(e.body).kind)).toContain('label');
  });

  it('lets an operator delete only runs they started, and an admin any run', async () => {
    const { deleteRunAction } = await import('./delete-run');
    env.as('operator');
    expect(await deleteRunAction(inputs.deleteRunAction as never)).toMatchObject({ ok: false, code: 'forbidden' });
    const { runGovernedAction } = await import('./run-governed');
    const own = await runGovernedAction({ datasetId: 'bundled', caseId: 'S001' });
    expect(own).toMatchObject({ ok: true, data: { status: 'finished' } });
    expect(await deleteRunAction({ runId: (own as { data: { runId: string } }).data.runId })).toMatchObject({ ok: true });
    // A plain (ungoverned) run records its starter too: the operator may delete it, a reviewer may not.
    const { runOneAction } = await import('./run-one');
    const plain = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    const plainId = (plain as { data: { runId: string } }).data.runId;
    env.as('reviewer');
    expect(await deleteRunAction({ runId: plainId })).toMatchObject({ ok: false, code: 'forbidden' });
    env.as('operator');
    expect(await deleteRunAction({ runId: plainId })).toMatchObject({ ok: true });
    env.as('admin');
    expect(await deleteRunAction(inputs.deleteRunAction as never)).toMatchObject({ ok: true });
  });

  describe('sign-in (public)', () => {
    it('answers a wrong password and an unknown email the same way, creating no session', async () => {
      const { signInAction } = await import('./sign-in');
      const { getDb } = await import('../db/core/client');
      const sessions = await getDb().prisma.session.count();
      const wrong = await signInAction({ email: TEST_USERS.viewer.email, password: 'not the password at all' });
      const unknown = await signInAction({ email: 'nobody@example.test', password: TEST_PASSWORD });
      expect(wrong).toEqual({ ok: false, code: 'invalid_credentials', error: 'That email and password do not match a dashboard user.' });
      expect(unknown).toEqual(wrong);
      expect(await getDb().prisma.session.count()).toBe(sessions);
    });

    it('creates a session for the right password and only follows local next paths', async () => {
      const { signInAction } = await import('./sign-in');
      const { getDb } = await import('../db/core/client');
      const sessions = await getDb().prisma.session.count();
      // Success is a redirect to the page asked for (rendered into the action's response), never elsewhere.
      expect(await redirectedTo(signInAction({ email: TEST_USERS.viewer.email, password: TEST_PASSWORD, next: '/approvals?tab=stale' }))).toBe('/approvals?tab=stale');
      expect(await redirectedTo(signInAction({ email: TEST_USERS.viewer.email, password: TEST_PASSWORD, next: '//evil.example/x' }))).toBe('/');
      expect(await redirectedTo(signInAction({ email: TEST_USERS.viewer.email, password: TEST_PASSWORD, next: 'https://evil.example/' }))).toBe('/');
      expect(await getDb().prisma.session.count()).toBe(sessions + 3);
    });
  });
});

describe('route handlers', () => {
  type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;
  const load = async (route: string) => (await import(/* @vite-ignore */ `../../app/api/${route}/route`)) as Record<string, Handler>;

  it('has no mutating route handler that skips the session check, except the listed public ones', async () => {
    const mutating: string[] = [];
    for (const route of routes) {
      const mod = await load(route);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) if (typeof mod[method] === 'function') mutating.push(`${route} ${method}`);
    }
    // A new mutating route must use safeRoute (and be tested below) or be listed with a reason.
    const unguarded = mutating.filter((m) => !(m in PUBLIC_MUTATING_ROUTES));
    for (const m of unguarded) {
      const [route, method] = m.split(' ') as [string, string];
      const mod = await load(route);
      // The request carries the chosen session's cookie, as a browser's would.
      const { headers } = await import('next/headers');
      const request = async () => new Request(`http://127.0.0.1/api/${route}`, { method, headers: await headers(), body: method === 'POST' ? '{}' : undefined });
      env.as(null);
      const res = await mod[method]!(await request(), { params: Promise.resolve({ id: 'x' }) });
      expect(res.status, `${m} without a session`).toBe(401);
      env.as('viewer');
      const res2 = await mod[method]!(await request(), { params: Promise.resolve({ id: 'x' }) });
      expect(res2.status, `${m} as a viewer`).toBe(403);
    }
    expect(mutating.filter((m) => m in PUBLIC_MUTATING_ROUTES).sort()).toEqual(Object.keys(PUBLIC_MUTATING_ROUTES).sort());
  });

  it('lets a signed-in operator call the MCP endpoint, as an MCP client with the token may', async () => {
    const { POST } = await import('../../app/api/mcp/route');
    const { headers } = await import('next/headers');
    env.as('operator');
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const h = new Headers(await headers());
    h.set('content-type', 'application/json');
    h.set('accept', 'application/json, text/event-stream');
    const res = await POST(new Request('http://127.0.0.1/api/mcp', { method: 'POST', headers: h, body: JSON.stringify(init) }));
    expect(res.status).toBe(200);
  });

  it("refuses the MCP endpoint's session stream and DELETE without a session (401) and to a viewer (403), and keeps an operator's MCP session that operator's alone", async () => {
    const { POST, GET, DELETE } = await import('../../app/api/mcp/route');
    const { headers } = await import('next/headers');
    const request = async (method: 'POST' | 'GET' | 'DELETE', session?: string, body?: unknown) => {
      const h = new Headers(await headers());
      h.set('content-type', 'application/json');
      h.set('accept', 'application/json, text/event-stream');
      if (session) h.set('mcp-session-id', session);
      return new Request('http://127.0.0.1/api/mcp', { method, headers: h, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    };
    env.as('operator');
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const session = (await POST(await request('POST', undefined, init))).headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    for (const [user, status] of [[null, 401], ['viewer', 403], ['reviewer', 403], ['admin', 404]] as const) {
      env.as(user);
      expect((await GET(await request('GET', session))).status, `GET as ${user}`).toBe(status);
      expect((await DELETE(await request('DELETE', session))).status, `DELETE as ${user}`).toBe(status);
      expect((await POST(await request('POST', session, { jsonrpc: '2.0', id: 2, method: 'ping' }))).status, `POST as ${user}`).toBe(status);
    }
    env.as('operator');
    expect((await POST(await request('POST', session, { jsonrpc: '2.0', id: 3, method: 'ping' }))).status).toBe(200);
    expect((await DELETE(await request('DELETE', session))).status).toBe(200);
    expect((await POST(await request('POST', session, { jsonrpc: '2.0', id: 4, method: 'ping' }))).status).toBe(404);
  });

  const hasGet = (route: string) => /^export const GET\b|^export (async )?function GET\b/m.test(fs.readFileSync(path.join(API_DIR, route, 'route.ts'), 'utf8'));
  it.each(routes.filter((r) => !r.startsWith('auth') && r !== 'mcp' && !(r in PUBLIC_READ_ROUTES) && hasGet(r)))('GET /api/%s answers 401 without a session', async (route) => {
    const mod = await load(route);
    env.as(null);
    const res = await mod.GET!(new Request(`http://127.0.0.1/api/${route.replace('[id]', 'abc')}?index=0&fromStep=0&toStep=0`), { params: Promise.resolve({ id: 'abc' }) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthenticated' });
  });
});

/**
 * Tenant isolation, for every read and every write (issue 9 §1), as one suite run on SQLite and on
 * PostgreSQL. Tenant `kittiwake` owns the bundled dataset and its runs, suite, approval and journal
 * entry; users of tenant `puffin` (its admin included) must neither read nor change any of them.
 * Actions are discovered from the `'use server'` files of lib/actions and read routes from app/api,
 * so a new one is covered (pages are covered by the browser spec e2e/tenancy).
 *
 * The calling test file must `vi.mock('next/headers')` and `vi.mock('next/cache')` (action-env.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpActionEnv, type ActionEnv } from './action-env';
import { discoverActions, discoverRoutes } from './discover';


/** Actions that touch no tenant's objects, and why. */
const TENANTLESS_ACTIONS: Record<string, string> = {
  signInAction: 'signing in reads only the caller’s own credentials',
  runCalibrationAction: 'it reads only the caller’s own tenant’s labels (source labels) and writes a calibration only in that tenant (lib/actions/actions-auth.test.ts, lib/db/review/judge.test.ts)',
  importGoldenSetAction: 'it stores a version only of the caller’s own tenant’s set of that name: a name kittiwake uses makes puffin its own set (tested below)',
  saveLabelSetAction: 'it stores a version only of the caller’s own tenant’s label set (tested below)',
  signOutAction: 'it only ends the caller’s own session',
  chooseTenantAction: 'it chooses among the caller’s own tenants (tested below)',
  setDemoFaultAction: 'it arms a fault only in the caller’s own working tenant (lib/actions/set-demo-fault.test.ts)',
  refreshToolServersAction: 'it lists the deployment’s tool servers into the caller’s own tenant’s cache only (lib/db/auth/tool-server-listings.ts)',
  authorizeToolServerAction: 'it stores OAuth credentials only for the caller’s own tenant, sealed to it (lib/db/auth/mcp-oauth.test.ts)',
  addWebhookAction: 'it saves an endpoint only in the caller’s own tenant (lib/actions/webhooks.test.ts)',
  addEmailEndpointAction: 'it saves an email endpoint only in the caller’s own tenant (lib/actions/email-notifications.test.ts)',
  saveEvaluatorAction: 'it saves an evaluator only in the caller’s own tenant: a name kittiwake uses makes puffin its own (tested below)',
  saveAlertRuleAction: 'it saves a rule only in the caller’s own tenant: a name kittiwake uses makes puffin its own (tested below)',
};
/** Routes that serve no tenant's stored objects, and why. */
const TENANTLESS_ROUTES: Record<string, string> = {
  'auth/[...all]': 'better-auth’s own endpoints',
  mcp: 'the MCP endpoint, not a read route of one object: its resources, sessions and subscriptions are the caller’s tenant’s only (tested below; app/api/mcp/resources.test.ts, subscriptions.test.ts)',
  'mcp-oauth/callback': 'it completes only an authorization the caller’s own tenant started: the state is looked up within that tenant (lib/db/auth/mcp-oauth.test.ts)',
  'otlp/v1/traces': 'write-only: imports into the tenant its bearer token names (app/api/otlp/v1/traces/route.test.ts)',
  'otlp/v1/logs': 'write-only: attaches logs only to the runs of the tenant its bearer token names (app/api/otlp/v1/producers.test.ts)',
  health: 'the database and queue probes for a load balancer: no stored object of any tenant (lib/jobs/health-pg.test.ts)',
  'runs/export': 'the runs table as CSV: a list, scoped by the caller’s tenant like /runs (tested below)',
};

type Action = (input: unknown) => Promise<{ ok: boolean; code?: string; error?: string; data?: unknown }>;
type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

const PUFFIN_USERS = ['puffinAdmin', 'puffinOperator', 'puffinReviewer'] as const;

/**
 * Loads the route module at `app/api/<route>/route`. Handed in by the test file that runs the suite: a
 * test may compose the app, but lib/ never imports app/ (lib/import-graph.test.ts).
 */
export type RouteLoader = (route: string) => Promise<unknown>;

export function tenantIsolationSuite(provider: 'sqlite' | 'postgres', importRoute: RouteLoader) {
  let env: ActionEnv;
  /** kittiwake's objects. */
  const k = { governedRun: '', approval: '', plainRun: '', suite: '', operationKey: '', toolIndex: 0, goldenSet: 'kittiwake-golden', webhook: '', delivery: '', evaluator: '', alertRule: '', backfill: '' };
  let inputs: Record<string, unknown> = {};
  let snapshot: () => Promise<string>;
  let tmp: string;

  const load = async (file: string, name: string) => (await import(/* @vite-ignore */ `../${file.replace(/\.ts$/, '')}`))[name] as Action;
  const loadRoute = async (route: string) => (await importRoute(route)) as Record<string, Handler>;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-tenancy-'));
    env = await setUpActionEnv({ provider });
    await env.addUser('puffinAdmin', 'admin@puffin.test', [{ tenant: 'puffin', roles: ['admin', 'operator', 'reviewer'] }]);
    await env.addUser('puffinOperator', 'operator@puffin.test', [{ tenant: 'puffin', roles: ['operator'] }]);
    await env.addUser('puffinReviewer', 'reviewer@puffin.test', [{ tenant: 'puffin', roles: ['reviewer'] }]);
    await env.addUser('multi', 'multi@example.test', [
      { tenant: 'kittiwake', roles: ['operator'] },
      { tenant: 'puffin', roles: ['reviewer'] },
    ]);
    const { getDb } = await import('../../db/core/client');
    const { PrismaJournalStore } = await import('../../db/governance/governance-journal');
    const { createSuiteRun } = await import('../../db/suites/suites');
    const { runGovernedAction } = await import('../run-governed');
    const { runOneAction } = await import('../run-one');
    const { addGoldenCaseAction } = await import('../add-golden-case');
    const prisma = getDb().prisma;

    env.as('operator');
    const paused = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
    if (!paused.ok || !paused.data.approvalId) throw new Error(`setup: the governed S024 run did not pause: ${JSON.stringify(paused)}`);
    const plain = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!plain.ok) throw new Error('setup: plain run failed');
    k.governedRun = paused.data.runId;
    k.approval = paused.data.approvalId;
    k.plainRun = plain.data.runId;
    k.suite = await createSuiteRun({ kind: 'matrix', tenant: 'kittiwake', config: {}, datasetName: 'stockroom', datasetHash: 'h', total: 0 });
    const golden = await addGoldenCaseAction({ runId: k.plainRun, setName: k.goldenSet, id: 'K001', category: 'lookup', query: 'q', referenceAnswer: 'a' });
    if (!golden.ok) throw new Error(`setup: the golden case was not added: ${JSON.stringify(golden)}`);
    k.toolIndex = (await prisma.toolCall.findFirstOrThrow({ where: { runId: k.plainRun }, orderBy: { idx: 'asc' } })).idx;
    const journal = new PrismaJournalStore(prisma);
    k.operationKey = `op:${k.governedRun}:manual:create_restock_request@1`;
    const at = new Date().toISOString();
    await journal.prepare({ operationKey: k.operationKey, runId: k.governedRun, callId: 'manual', tool: 'create_restock_request', toolVersion: '1', argumentsDigest: 'x' }, at);
    await journal.transition(k.operationKey, 'prepared', 'dispatched', { attempts: 1 }, at);
    await journal.transition(k.operationKey, 'dispatched', 'unknown', { error: 'simulated crash' }, at);
    // A kittiwake webhook endpoint and one delivery of it, for the actions that name them by id.
    const { createWebhookEndpoint, recordDeliveries } = await import('../../db/auth/webhooks');
    k.webhook = (await createWebhookEndpoint(prisma, { tenant: 'kittiwake', url: 'https://hooks.example.com/kittiwake', format: 'standard', events: ['approval.requested'], role: 'reviewer', secretSealed: 'sealed', createdBy: 'fixture' })).id;
    // A kittiwake evaluator and alert rule (issue 37), for the actions that name them by id.
    const { saveEvaluator } = await import('../../db/review/evaluators');
    k.evaluator = (await saveEvaluator('kittiwake', { name: 'loops', kind: 'loop_findings', enabled: true, config: {}, filter: {} }, 'fixture')).id;
    // And a backfill of it, running (no job is enqueued for it here), for the action that names it by id.
    const { startBackfill } = await import('../../db/review/evaluator-backfills');
    k.backfill = (await startBackfill('kittiwake', k.evaluator, { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-02T00:00:00Z') }, 'fixture')).id;
    const { saveAlertRule } = await import('../../db/review/alerts');
    k.alertRule = (await saveAlertRule('kittiwake', { name: 'errors', kind: 'error_share', threshold: 0.05 }, 'fixture')).id;
    k.delivery = (await recordDeliveries(prisma, [{ endpointId: k.webhook, tenant: 'kittiwake', event: 'approval.requested', eventKey: `fixture:${k.approval}`, body: '{}' }]))[0]!;
    env.as(null);

    inputs = {
      cancelSuiteAction: { id: k.suite },
      stopRunAction: { id: k.plainRun },
      runOneAction: { datasetId: 'bundled', caseId: 'S001' },
      startRunAction: { datasetId: 'bundled', caseId: 'S001' },
      replayRunAction: { runId: k.plainRun, weaknesses: ['ambiguous_tool_desc'] },
      runGovernedAction: { datasetId: 'bundled', caseId: 'S024' },
      startSuiteAction: { datasetId: 'bundled' },
      startMatrixAction: { datasetId: 'bundled' },
      estimateMatrixAction: { datasetId: 'bundled', epochs: 2 },
      deleteRunAction: { runId: k.plainRun },
      eraseRunAction: { runId: k.plainRun },
      decideApprovalAction: { id: k.approval, verdict: 'approve', reason: 'within budget' },
      reconcileEffectAction: { operationKey: k.operationKey },
      addGoldenCaseAction: { runId: k.plainRun, setName: k.goldenSet, id: 'P001', category: 'lookup', query: 'q', referenceAnswer: 'a' },
      addLabelAction: { runId: k.plainRun, verdict: 'pass' },
      removeWebhookAction: { endpointId: k.webhook },
      redeliverWebhookAction: { deliveryId: k.delivery },
      removeEvaluatorAction: { evaluatorId: k.evaluator },
      startBackfillAction: { evaluatorId: k.evaluator, from: '2026-01-01T00:00', to: '2026-01-02T00:00' },
      cancelBackfillAction: { backfillId: k.backfill },
      removeAlertRuleAction: { ruleId: k.alertRule },
    };
    snapshot = async () =>
      JSON.stringify({
        runs: await prisma.run.findMany({ select: { id: true, status: true, tenant: true }, orderBy: { id: 'asc' } }),
        suites: await prisma.suiteRun.findMany({ select: { id: true, status: true }, orderBy: { id: 'asc' } }),
        governed: await prisma.governedRun.findMany({ select: { runId: true, status: true, stateVersion: true }, orderBy: { runId: 'asc' } }),
        approvals: await prisma.approvalRequest.findMany({ select: { id: true, status: true, stateVersion: true }, orderBy: { id: 'asc' } }),
        decisions: await prisma.approvalDecision.count(),
        journal: await prisma.effectJournalEntry.findMany({ select: { operationKey: true, status: true }, orderBy: { operationKey: 'asc' } }),
        evidence: await prisma.evidenceEvent.count(),
        labels: await prisma.runLabel.count(),
        labelSets: await prisma.labelSet.findMany({ select: { tenant: true, version: true }, orderBy: [{ tenant: 'asc' }, { version: 'asc' }] }),
        webhooks: await prisma.webhookEndpoint.findMany({ select: { id: true, tenant: true }, orderBy: { id: 'asc' } }),
        deliveries: await prisma.webhookDelivery.findMany({ select: { id: true, status: true, attempts: true }, orderBy: { id: 'asc' } }),
        evaluators: await prisma.evaluator.findMany({ select: { id: true, tenant: true, name: true, version: true }, orderBy: { id: 'asc' } }),
        alertRules: await prisma.alertRule.findMany({ select: { id: true, tenant: true, name: true, threshold: true }, orderBy: { id: 'asc' } }),
        backfills: await prisma.evaluatorBackfill.findMany({ select: { id: true, tenant: true, status: true }, orderBy: { id: 'asc' } }),
        goldenSets: await prisma.goldenSet.findMany({ select: { tenant: true, name: true, version: true }, orderBy: [{ tenant: 'asc' }, { name: 'asc' }, { version: 'asc' }] }),
      });
  });
  afterAll(async () => {
    await env?.cleanup();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    delete process.env.STOCKROOM_DATASET_TENANTS;
    delete process.env.STOCKROOM_POLICY_FILE;
  });

  describe(`read routes (${provider})`, () => {
    const routes = discoverRoutes().filter((r) => !(r in TENANTLESS_ROUTES));
    const query = () => `fromStep=0&toStep=1&call=0&index=${k.toolIndex}&setting=none&metric=tool_selection_accuracy`;
    const idFor = (route: string) =>
      route.startsWith('golden-sets/') ? k.goldenSet : route.startsWith('suites/') ? k.suite : route.includes('tool-result') || route.includes('tool-media') ? k.plainRun : k.governedRun;
    /** The route's one path parameter: `[id]`, or a golden set's `[name]`. */
    const paramOf = (route: string) => (route.includes('[name]') ? 'name' : 'id');
    const get = async (route: string, id: string) => {
      const { headers } = await import('next/headers');
      const param = paramOf(route);
      const res = await (await loadRoute(route)).GET!(new Request(`http://127.0.0.1/api/${route.replace(`[${param}]`, id)}?${query()}`, { headers: await headers() }), {
        params: Promise.resolve({ [param]: id }),
      });
      // An event stream of a run or suite still going never ends: its first event is enough here.
      if (res.headers.get('content-type')?.startsWith('text/event-stream') && res.body) {
        const reader = res.body.getReader();
        const first = await reader.read();
        await reader.cancel();
        return { status: res.status, body: new TextDecoder().decode(first.value) };
      }
      return { status: res.status, body: await res.text() };
    };

    it('finds the run and suite read routes in app/api', () => {
      expect(routes).toEqual(expect.arrayContaining(['runs/[id]/steps', 'runs/[id]/model-input', 'runs/[id]/tool-result', 'runs/[id]/waterfall', 'suites/[id]', 'golden-sets/[name]/export']));
      for (const r of routes) expect(r, 'a read route of one object: add its kittiwake object to idFor').toMatch(/^((runs|suites)\/\[id\]|golden-sets\/\[name\])/);
      for (const r of discoverRoutes()) expect(r in TENANTLESS_ROUTES || routes.includes(r)).toBe(true);
    });

    it("serves kittiwake's own reviewer (so a 404 below is the tenant check, not a bad request)", async () => {
      env.as('reviewer');
      for (const route of routes) expect((await get(route, idFor(route))).status, route).toBe(200);
    });

    it.each(PUFFIN_USERS)("answers %s on every route for kittiwake's run or suite exactly like a missing id, naming no tenant", async (user) => {
      env.as(user);
      for (const route of routes) {
        const id = idFor(route);
        const foreign = await get(route, id);
        const missing = await get(route, `${id.slice(0, -4)}zzzz`);
        expect(foreign.status, `${route} as ${user}`).toBe(404);
        expect(foreign.body.replaceAll(id, '<id>'), route).toBe(missing.body.replaceAll(`${id.slice(0, -4)}zzzz`, '<id>'));
        expect(foreign.body).toContain('not_found');
        expect(foreign.body).not.toMatch(/kittiwake/i);
      }
    });

    it("refuses a suite's statistics against another tenant's suite (?against=) as not found, naming no tenant", async () => {
      const { createSuiteRun } = await import('../../db/suites/suites');
      const own = await createSuiteRun({ kind: 'eval', tenant: 'puffin', config: {}, datasetName: 'stockroom', datasetHash: 'h', total: 0 });
      const { headers } = await import('next/headers');
      const stats = async (against: string) =>
        (await loadRoute('suites/[id]/statistics')).GET!(new Request(`http://127.0.0.1/api/suites/${own}/statistics?against=${against}`, { headers: await headers() }), { params: Promise.resolve({ id: own }) });
      env.as('puffinReviewer');
      expect((await stats(own)).status).toBe(200);
      const foreign = await stats(k.suite);
      expect(foreign.status).toBe(404);
      expect(await foreign.text()).not.toMatch(/kittiwake/i);
    });

    it("exports kittiwake's golden set to its reviewer, and a given version of it", async () => {
      env.as('reviewer');
      const res = await get('golden-sets/[name]/export', k.goldenSet);
      expect(res.body).toContain('"K001"');
      const { GET } = await loadRoute('golden-sets/[name]/export');
      const { headers } = await import('next/headers');
      const at = async (version: number) =>
        (await GET!(new Request(`http://127.0.0.1/api/golden-sets/${k.goldenSet}/export?version=${version}`, { headers: await headers() }), { params: Promise.resolve({ name: k.goldenSet }) })).status;
      expect(await at(1)).toBe(200);
      expect(await at(99)).toBe(404);
    });

    it("lists none of kittiwake's runs in another tenant's runs CSV", async () => {
      const { GET } = await loadRoute('runs/export');
      const { headers } = await import('next/headers');
      const csv = async () => (await GET!(new Request('http://127.0.0.1/api/runs/export', { headers: await headers() }), { params: Promise.resolve({}) })).text();
      env.as('reviewer');
      expect(await csv()).toContain(k.plainRun);
      env.as('puffinAdmin');
      const foreign = await csv();
      for (const id of [k.plainRun, k.governedRun]) expect(foreign).not.toContain(id);
    });

    it.each(PUFFIN_USERS)("answers %s at /api/mcp, which serves kittiwake's dataset, as not found, naming no tenant", async (user) => {
      const { POST } = await loadRoute('mcp');
      const { headers } = await import('next/headers');
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const post = async () => {
        const h = new Headers(await headers());
        h.set('content-type', 'application/json');
        h.set('accept', 'application/json, text/event-stream');
        return POST!(new Request('http://127.0.0.1/api/mcp', { method: 'POST', headers: h, body: JSON.stringify(init) }));
      };
      env.as('operator');
      expect((await post()).status).toBe(200);
      env.as(user);
      const res = await post();
      // An operator of puffin (the admin included) holds the role; the reviewer alone is refused for the role first.
      expect(res.status).toBe(user === 'puffinReviewer' ? 403 : 404);
      expect(await res.text()).not.toMatch(/kittiwake/i);
    });

    it("keeps /api/mcp sessions and subscriptions within a tenant: a puffin user presenting kittiwake's session id is not found, and kittiwake cannot follow puffin's run", async () => {
      const mcp = await loadRoute('mcp');
      const { headers } = await import('next/headers');
      const send = async (method: 'POST' | 'GET' | 'DELETE', session: string | null, body?: unknown) => {
        const h = new Headers(await headers());
        h.set('content-type', 'application/json');
        h.set('accept', 'application/json, text/event-stream');
        if (session) h.set('mcp-session-id', session);
        return mcp[method]!(new Request('http://127.0.0.1/api/mcp', { method, headers: h, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
      };
      env.as('operator');
      const opened = await send('POST', null, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      const session = opened.headers.get('mcp-session-id');
      expect(session).toBeTruthy();

      const { saveRun } = await import('../../db/runs');
      const { makeMeta, makeRun } = await import('../../db/testing/run-fixtures');
      const theirs = await saveRun({ ...makeRun({ runId: 'h-puffin-live', rounds: 1 }), status: 'running' }, makeMeta({ tenant: 'puffin' }));
      const subscribe = async (runId: string) =>
        JSON.stringify(await (await send('POST', session, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: `stockroom://runs/${runId}` } })).json());
      const foreign = await subscribe(theirs);
      const missing = await subscribe(`${theirs.slice(0, -4)}zzzz`);
      expect(foreign).toContain('-32002');
      expect(foreign.replaceAll(theirs, '<id>')).toBe(missing.replaceAll(`${theirs.slice(0, -4)}zzzz`, '<id>'));
      expect(foreign).not.toMatch(/puffin/i);

      for (const user of PUFFIN_USERS) {
        env.as(user);
        for (const method of ['POST', 'GET', 'DELETE'] as const) {
          const res = await send(method, session, method === 'POST' ? { jsonrpc: '2.0', id: 3, method: 'resources/list' } : undefined);
          // The reviewer alone is refused for the role first.
          expect(res.status, `${method} as ${user}`).toBe(user === 'puffinReviewer' ? 403 : 404);
          expect(await res.text()).not.toMatch(/kittiwake/i);
        }
      }
      // Still the kittiwake operator's, who ends it.
      env.as('operator');
      expect((await send('POST', session, { jsonrpc: '2.0', id: 4, method: 'ping' })).status).toBe(200);
      expect((await send('DELETE', session)).status).toBe(200);
    });

    it('ignores a forged tenant cookie naming a tenant the caller does not belong to', async () => {
      env.as('puffinAdmin', { tenant: 'kittiwake' });
      expect((await get('runs/[id]/steps', k.governedRun)).status).toBe(404);
    });
  });

  describe(`actions (${provider})`, () => {
    const actions = discoverActions().filter((a) => !(a.name in TENANTLESS_ACTIONS));

    it('has a kittiwake-targeting input for every action that is not listed as tenantless', () => {
      for (const a of actions) expect(inputs, `add an input for ${a.name}`).toHaveProperty(a.name);
    });

    it.each(PUFFIN_USERS)("refuses %s every action on kittiwake's objects and dataset, writes nothing, names no tenant", async (user) => {
      env.as(user);
      for (const { file, name } of actions) {
        const before = await snapshot();
        const res = await (await load(file, name))(inputs[name]);
        expect(res.ok, `${name} as ${user}`).toBe(false);
        expect(['not_found', 'invalid_input', 'forbidden'], `${name} as ${user}: ${res.code}`).toContain(res.code);
        expect(JSON.stringify(res), name).not.toMatch(/kittiwake/i);
        expect(await snapshot(), `${name} as ${user} wrote something`).toBe(before);
      }
    });

    it("keeps a puffin admin's evaluator and alert rule of kittiwake's names in puffin: kittiwake's are unchanged", async () => {
      const { saveEvaluatorAction } = await import('../save-evaluator');
      const { saveAlertRuleAction } = await import('../save-alert-rule');
      const prisma = (await import('../../db/core/client')).getDb().prisma;
      const before = await prisma.evaluator.findMany({ where: { tenant: 'kittiwake' }, orderBy: { id: 'asc' } });
      const rulesBefore = await prisma.alertRule.findMany({ where: { tenant: 'kittiwake' }, orderBy: { id: 'asc' } });
      env.as('puffinAdmin');
      expect((await saveEvaluatorAction({ name: 'loops', kind: 'blocked_calls' })).ok).toBe(true);
      expect((await saveAlertRuleAction({ name: 'errors', kind: 'daily_cost', threshold: 3 })).ok).toBe(true);
      expect(await prisma.evaluator.findMany({ where: { tenant: 'kittiwake' }, orderBy: { id: 'asc' } })).toEqual(before);
      expect(await prisma.alertRule.findMany({ where: { tenant: 'kittiwake' }, orderBy: { id: 'asc' } })).toEqual(rulesBefore);
      expect(await prisma.evaluator.count({ where: { tenant: 'puffin', name: 'loops', kind: 'blocked_calls' } })).toBe(1);
      expect(await prisma.alertRule.count({ where: { tenant: 'puffin', name: 'errors', kind: 'daily_cost' } })).toBe(1);
    });

    it("keeps a puffin admin's golden-set import and label set in puffin: kittiwake's set of that name and its label set are unchanged", async () => {
      const { importGoldenSetAction } = await import('../import-golden-set');
      const { saveLabelSetAction } = await import('../save-label-set');
      const { getGoldenSetTextOrThrow } = await import('../../db/review/golden-sets');
      const { currentLabelSet } = await import('../../db/review/labels');
      const theirs = await getGoldenSetTextOrThrow('kittiwake', k.goldenSet, null);
      const theirLabels = await currentLabelSet('kittiwake');
      env.as('puffinAdmin');
      const imported = await importGoldenSetAction({ name: k.goldenSet, jsonl: theirs.jsonl.replaceAll('K001', 'P001') });
      expect(imported).toMatchObject({ ok: true, data: { name: k.goldenSet, version: 1 } });
      expect(await saveLabelSetAction({ verdicts: ['pass', 'fail', 'puffin-only'], categories: [] })).toMatchObject({ ok: true });
      expect(await getGoldenSetTextOrThrow('kittiwake', k.goldenSet, null)).toEqual(theirs);
      expect(await getGoldenSetTextOrThrow('puffin', k.goldenSet, null)).toMatchObject({ version: 1, jsonl: expect.stringContaining('P001') });
      expect(await currentLabelSet('kittiwake')).toEqual(theirLabels);
      expect((await currentLabelSet('puffin')).verdicts).toContain('puffin-only');
    });

    it("answers a puffin admin deleting kittiwake's run as not found, and the run stays", async () => {
      const { deleteRunAction } = await import('../delete-run');
      const { getDb } = await import('../../db/core/client');
      env.as('puffinAdmin');
      expect(await deleteRunAction({ runId: k.plainRun })).toMatchObject({ ok: false, code: 'not_found' });
      expect(await getDb().prisma.run.count({ where: { id: k.plainRun } })).toBe(1);
    });

    it("answers a puffin operator reconciling kittiwake's journal entry as not found, and records nothing as them", async () => {
      const { reconcileEffectAction } = await import('../reconcile-effect');
      const { getDb } = await import('../../db/core/client');
      env.as('puffinOperator');
      expect(await reconcileEffectAction({ operationKey: k.operationKey })).toMatchObject({ ok: false, code: 'not_found' });
      expect(await getDb().prisma.effectJournalEntry.findUniqueOrThrow({ where: { operationKey: k.operationKey } })).toMatchObject({ status: 'unknown' });
      expect(await getDb().prisma.evidenceEvent.count({ where: { body: { contains: env.ids.puffinOperator! } } })).toBe(0);
    });

    it("refuses a puffin operator's governed run on kittiwake's dataset and a puffin reviewer's decision: no restock is committed", async () => {
      const { runGovernedAction } = await import('../run-governed');
      const { decideApprovalAction } = await import('../decide-approval');
      const { getDb } = await import('../../db/core/client');
      const prisma = getDb().prisma;
      env.as('puffinOperator');
      const run = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
      expect(run).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { datasetId: ["Unknown dataset 'bundled'."] } });
      env.as('puffinReviewer');
      const decided = await decideApprovalAction({ id: k.approval, verdict: 'approve', reason: 'within budget' });
      expect(decided).toMatchObject({ ok: false, code: 'not_found' });
      expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id: k.approval } })).toMatchObject({ status: 'pending' });
      expect(await prisma.effectJournalEntry.count({ where: { status: 'committed' } })).toBe(0);
    });
  });

  describe(`datasets belong to a tenant (${provider})`, () => {
    it("makes a dataset assigned to puffin puffin's: its runs are puffin's, its approvals go to puffin's reviewers only", async () => {
      const { runGovernedAction } = await import('../run-governed');
      const { decideApprovalAction } = await import('../decide-approval');
      const { getDb } = await import('../../db/core/client');
      const prisma = getDb().prisma;
      process.env.STOCKROOM_DATASET_TENANTS = 'bundled=puffin';
      try {
        env.as('operator');
        expect(await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' })).toMatchObject({ ok: false, code: 'invalid_input' });
        env.as('puffinOperator');
        const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S024' });
        if (!res.ok || !res.data.approvalId) throw new Error(`the puffin run did not pause: ${JSON.stringify(res)}`);
        expect(await prisma.run.findUniqueOrThrow({ where: { id: res.data.runId } })).toMatchObject({ tenant: 'puffin', governed: true });
        expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id: res.data.approvalId } })).toMatchObject({ tenant: 'puffin' });
        env.as('reviewer');
        expect(await decideApprovalAction({ id: res.data.approvalId, verdict: 'approve', reason: 'within budget' })).toMatchObject({ ok: false, code: 'not_found' });
        env.as('puffinReviewer');
        expect(await decideApprovalAction({ id: res.data.approvalId, verdict: 'deny', reason: 'not this week' })).toMatchObject({ ok: true, data: { status: 'denied' } });
      } finally {
        delete process.env.STOCKROOM_DATASET_TENANTS;
      }
    });

    it('reads a tenant a dataset declares in its tenant.json, and refuses a malformed one naming the file', async () => {
      const { declaredTenant } = await import('../../runs/datasets');
      fs.writeFileSync(path.join(tmp, 'tenant.json'), JSON.stringify({ tenant: 'puffin' }));
      expect(declaredTenant(tmp)).toBe('puffin');
      fs.writeFileSync(path.join(tmp, 'tenant.json'), JSON.stringify({ tenant: 'Not A Tenant!' }));
      expect(() => declaredTenant(tmp)).toThrow(/tenant\.json/);
      fs.rmSync(path.join(tmp, 'tenant.json'));
      expect(declaredTenant(tmp)).toBeNull();
    });
  });

  describe(`choosing a tenant (${provider})`, () => {
    it('works in the chosen tenant after switching, and refuses a tenant the user does not belong to', async () => {
      const { chooseTenantAction } = await import('../choose-tenant');
      const { runOneAction } = await import('../run-one');
      const { currentPrincipal } = await import('../../auth/authorize');
      env.as('multi');
      expect(await currentPrincipal()).toMatchObject({ tenant: 'kittiwake', tenants: ['kittiwake', 'puffin'], roles: ['operator'] });
      expect(await chooseTenantAction({ tenant: 'other-depot' })).toMatchObject({ ok: false, code: 'not_found' });
      expect(await chooseTenantAction({ tenant: 'puffin' })).toEqual({ ok: true, data: { tenant: 'puffin' } });
      expect(await currentPrincipal()).toMatchObject({ tenant: 'puffin', roles: ['reviewer'] });
      // A reviewer in puffin starts nothing there, and kittiwake's run is not found from puffin.
      expect(await runOneAction({ datasetId: 'bundled', caseId: 'S001' })).toMatchObject({ ok: false, code: 'forbidden' });
      const { GET } = await loadRoute('runs/[id]/steps');
      const { headers } = await import('next/headers');
      const res = await GET!(new Request(`http://127.0.0.1/api/runs/${k.plainRun}/steps?fromStep=0&toStep=1`, { headers: await headers() }), { params: Promise.resolve({ id: k.plainRun }) });
      expect(res.status).toBe(404);
    });
  });

  describe(`mandatory governance (${provider})`, () => {
    it('refuses ungoverned runs, suites and matrices of a tenant whose governance is mandatory, writing nothing', async () => {
      const policy = JSON.parse(fs.readFileSync(path.resolve('config/policy.json'), 'utf8')) as Record<string, unknown>;
      const file = path.join(tmp, 'policy.json');
      fs.writeFileSync(file, JSON.stringify({ ...policy, tenants: { kittiwake: { governance: 'mandatory' } } }));
      process.env.STOCKROOM_POLICY_FILE = file;
      try {
        const { runOneAction } = await import('../run-one');
        const { startSuiteAction } = await import('../start-suite');
        const { startMatrixAction } = await import('../start-matrix');
        const { runGovernedAction } = await import('../run-governed');
        env.as('admin');
        const before = await snapshot();
        for (const res of [
          await runOneAction({ datasetId: 'bundled', caseId: 'S001' }),
          await startSuiteAction({ datasetId: 'bundled' }),
          await startMatrixAction({ datasetId: 'bundled' }),
        ]) {
          expect(res).toMatchObject({ ok: false, code: 'governance_required', error: expect.stringMatching(/Governance is mandatory in this tenant/) });
        }
        expect(await snapshot()).toBe(before);
        // A governed run is still allowed.
        expect(await runGovernedAction({ datasetId: 'bundled', caseId: 'S001' })).toMatchObject({ ok: true });
      } finally {
        delete process.env.STOCKROOM_POLICY_FILE;
      }
    });

    it('labels each stored run governed or not, so the list, replay and compare can say "ungoverned"', async () => {
      const { listRuns } = await import('../../db/runs/runs-list');
      const { items } = await listRuns({ filters: { tenant: 'kittiwake' }, limit: 200 });
      expect(items.find((r) => r.id === k.governedRun)).toMatchObject({ governed: true });
      expect(items.find((r) => r.id === k.plainRun)).toMatchObject({ governed: false });
      expect((await listRuns({ filters: { tenant: 'puffin' }, limit: 200 })).items.map((r) => r.id)).not.toContain(k.plainRun);
    });
  });
}

/**
 * The dashboard's model picker and live progress (issue 10 §1, §6): a live model is chosen by name
 * only, refused naming the variable the server lacks, and a live run is stored as it goes (the record
 * exists, status running, before the run ends; steps appear while it runs).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDataset, defaultDatasetDir } from '../stockroom/dataset/load-dataset';
import { startModelServer, type ModelServer } from '../models/model-server/server';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
let server: ModelServer;
const saved = { ...process.env };

beforeAll(async () => {
  env = await setUpActionEnv();
  // Latency keeps the run going long enough to be seen running (the assertion is on what was seen, not on time).
  server = await startModelServer({ dataset: loadDataset(defaultDatasetDir()), port: 0, latencyMs: 400 });
});
afterAll(async () => {
  process.env = saved;
  await server?.close();
  await env?.cleanup();
});

const withEnv = (vars: Record<string, string | undefined>) => {
  for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', 'STOCKROOM_MODEL_BASE_URL']) delete process.env[k];
  Object.assign(process.env, vars);
};

async function runCount() {
  const { getDb } = await import('../db/core/client');
  return getDb().prisma.run.count();
}

describe('the model picker (server side)', () => {
  it('lists only providers whose credentials the server holds; openai-compatible only with the server’s endpoint', async () => {
    const { pickableProviders } = await import('../runs/model-choice');
    expect(pickableProviders({})).toEqual([]);
    expect(pickableProviders({ OPENAI_API_KEY: 'sk-x' })).toEqual(['openai']);
    expect(pickableProviders({ ANTHROPIC_API_KEY: 'k', STOCKROOM_MODEL_BASE_URL: 'http://127.0.0.1:1/v1' })).toEqual(['openai-compatible', 'anthropic']);
  });

  it('refuses a provider the server holds no credentials for, naming the variable, and stores nothing', async () => {
    const { runOneAction } = await import('./run-one');
    const { startRunAction } = await import('./start-run');
    withEnv({});
    env.as('operator');
    const before = await runCount();
    for (const action of [runOneAction, startRunAction]) {
      const res = await action({ datasetId: 'bundled', caseId: 'S001', model: 'openai:gpt-4o-mini' });
      expect(res).toMatchObject({ ok: false, code: 'invalid_input' });
      expect(!res.ok && res.fieldErrors?.model?.[0]).toContain('OPENAI_API_KEY');
    }
    const compat = await runOneAction({ datasetId: 'bundled', caseId: 'S001', model: 'openai-compatible:stockroom-fake' });
    expect(!compat.ok && compat.fieldErrors?.model?.[0]).toContain('STOCKROOM_MODEL_BASE_URL');
    expect(await runCount()).toBe(before);
  });

  it('refuses a malformed model name or an unknown provider on the field', async () => {
    const { runOneAction } = await import('./run-one');
    env.as('operator');
    for (const model of ['gpt-4o', 'evil:x', 'openai:', 'openai:a b', 'openai-compatible:http://evil.example/v1']) {
      const res = await runOneAction({ datasetId: 'bundled', caseId: 'S001', model });
      expect(res.ok, model).toBe(false);
      expect(!res.ok && res.fieldErrors?.model, model).toBeTruthy();
    }
  });

  it('refuses a live model for a governed run instead of running it on the fake model', async () => {
    const { runGovernedAction } = await import('./run-governed');
    withEnv({ STOCKROOM_MODEL_BASE_URL: server.url });
    env.as('operator');
    const res = await runGovernedAction({ datasetId: 'bundled', caseId: 'S001', model: 'openai-compatible:stockroom-fake' });
    expect(res).toMatchObject({ ok: false, fieldErrors: { model: [expect.stringContaining('Governed runs use the fake model')] } });
  });

  it('refuses a live model for a suite when the server lacks its key', async () => {
    const { startSuiteAction } = await import('./start-suite');
    withEnv({});
    env.as('operator');
    const res = await startSuiteAction({ datasetId: 'bundled', model: 'anthropic:claude-x' });
    expect(!res.ok && res.fieldErrors?.model?.[0]).toContain('ANTHROPIC_API_KEY');
  });
});

describe('a live run is stored as it goes', () => {
  it('exists with status running as soon as it starts, shows its steps while running, and ends finished with the model it used', async () => {
    const { startRunAction } = await import('./start-run');
    const { getRunSummaryOrThrow } = await import('../db/runs/runs-read');
    withEnv({ STOCKROOM_MODEL_BASE_URL: server.url });
    env.as('operator');
    // S003 takes several model calls under the fake model's script.
    const res = await startRunAction({ datasetId: 'bundled', caseId: 'S003', model: 'openai-compatible:stockroom-fake' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    const seen: { status: string; steps: number }[] = [];
    for (;;) {
      const run = await getRunSummaryOrThrow(res.data.runId);
      seen.push({ status: run.status, steps: run.steps });
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen[0]?.status).toBe('running');
    const final = await getRunSummaryOrThrow(res.data.runId);
    expect(final).toMatchObject({ status: 'finished', mode: 'live', modelId: expect.stringContaining('stockroom-fake') });
    expect(final.steps).toBeGreaterThan(1);
    // Steps were appended while it ran: more than one distinct running snapshot was stored.
    const runningSteps = new Set(seen.filter((s) => s.status === 'running').map((s) => s.steps));
    expect(runningSteps.size).toBeGreaterThan(1);
    // A dashboard live run streams (issue 40): each stored model turn has its measured time to first token.
    const { getRunOrThrow } = await import('../db/runs/runs-read');
    const turns = (await getRunOrThrow(res.data.runId)).run.trajectory.filter((s) => s.kind === 'model_turn');
    expect(turns.length).toBeGreaterThan(1);
    for (const t of turns) expect(t).toMatchObject({ timeToFirstTokenMs: expect.any(Number) });
  }, 60_000);

  it('stops a running live run from the dashboard: it ends as MODEL_ERROR (cancelled) with its steps so far; another tenant gets not found, a viewer is forbidden', async () => {
    const { startRunAction } = await import('./start-run');
    const { stopRunAction } = await import('./stop-run');
    const { getRunSummaryOrThrow, getRunOrThrow } = await import('../db/runs/runs-read');
    withEnv({ STOCKROOM_MODEL_BASE_URL: server.url });
    env.as('operator');
    const res = await startRunAction({ datasetId: 'bundled', caseId: 'S003', model: 'openai-compatible:stockroom-fake' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    const id = res.data.runId;
    // Wait for a step to be stored, so the stop lands mid-run.
    while ((await getRunSummaryOrThrow(id)).steps < 1) await new Promise((r) => setTimeout(r, 50));
    env.as('outsider');
    expect(await stopRunAction({ id })).toMatchObject({ ok: false, code: 'not_found' });
    env.as('viewer');
    expect(await stopRunAction({ id })).toMatchObject({ ok: false, code: 'forbidden' });
    expect((await getRunSummaryOrThrow(id)).status).toBe('running');
    env.as('operator');
    expect(await stopRunAction({ id })).toMatchObject({ ok: true, data: { status: 'stopping' } });
    let final = await getRunSummaryOrThrow(id);
    while (final.status === 'running' || final.status === 'stopping') {
      await new Promise((r) => setTimeout(r, 50));
      final = await getRunSummaryOrThrow(id);
    }
    expect(final).toMatchObject({ status: 'finished', terminationReason: 'MODEL_ERROR' });
    const ended = (await getRunOrThrow(id)).run.trajectory.find((e) => e.kind === 'guard' && e.guard === 'model');
    expect(ended).toMatchObject({ reason: 'MODEL_ERROR', detail: expect.stringMatching(/^cancelled: /) });
    expect(final.steps).toBeGreaterThanOrEqual(1);
    // An ended run has nothing to stop.
    expect(await stopRunAction({ id })).toMatchObject({ ok: false, code: 'already_finished' });
  }, 60_000);

  it('stops a live run waiting out a Retry-After: 30 at once (observed: 28 s, the retry wait ignored the stop)', async () => {
    const { ProviderStub } = await import('../models/testing/stub-server');
    const { startRunAction } = await import('./start-run');
    const { stopRunAction } = await import('./stop-run');
    const { getRunSummaryOrThrow, getRunOrThrow } = await import('../db/runs/runs-read');
    const stub = await ProviderStub.start('openai');
    try {
      stub.respondWith(() => ({ kind: 'error', status: 429, headers: { 'retry-after': '30' } }));
      withEnv({ STOCKROOM_MODEL_BASE_URL: stub.baseURL });
      env.as('operator');
      const res = await startRunAction({ datasetId: 'bundled', caseId: 'S003', model: 'openai-compatible:stub' });
      if (!res.ok) throw new Error(JSON.stringify(res));
      const id = res.data.runId;
      await vi.waitFor(() => expect(stub.requests).toHaveLength(1), { timeout: 10_000, interval: 20 });
      // The 429 has been answered; give the client a moment to start its 30 s wait.
      await new Promise((r) => setTimeout(r, 300));
      expect(await stopRunAction({ id })).toMatchObject({ ok: true, data: { status: 'stopping' } });
      let final = await getRunSummaryOrThrow(id);
      while (final.status === 'running' || final.status === 'stopping') {
        await new Promise((r) => setTimeout(r, 50));
        final = await getRunSummaryOrThrow(id);
      }
      expect(final).toMatchObject({ status: 'finished', terminationReason: 'MODEL_ERROR' });
      const ended = (await getRunOrThrow(id)).run.trajectory.find((e) => e.kind === 'guard' && e.guard === 'model');
      expect(ended).toMatchObject({ detail: expect.stringMatching(/^cancelled: /) });
      expect(stub.requests).toHaveLength(1);
    } finally {
      await stub.close();
    }
  }, 20_000);

  it('keeps a fake-model run as before: stored once, finished', async () => {
    const { startRunAction } = await import('./start-run');
    const { getRunSummaryOrThrow } = await import('../db/runs/runs-read');
    env.as('operator');
    const res = await startRunAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    expect(await getRunSummaryOrThrow(res.data.runId)).toMatchObject({ status: 'finished', mode: 'mock' });
  });
});

describe('Replay against… (replayRunAction)', () => {
  let liveRunId = '';
  let fakeRunId = '';
  beforeAll(async () => {
    const { runOneAction } = await import('./run-one');
    withEnv({ STOCKROOM_MODEL_BASE_URL: server.url });
    env.as('operator');
    const live = await runOneAction({ datasetId: 'bundled', caseId: 'S001', model: 'openai-compatible:stockroom-fake' });
    const fake = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!live.ok || !fake.ok) throw new Error('setup: runs failed');
    liveRunId = live.data.runId;
    fakeRunId = fake.data.runId;
  }, 60_000);

  it('reproduces the run from its recordings when nothing changed, without calling the model', async () => {
    const { replayRunAction } = await import('./replay-run');
    const { getRunOrThrow } = await import('../db/runs/runs-read');
    env.as('operator');
    const requests = server.requests;
    const res = await replayRunAction({ runId: liveRunId });
    if (!res.ok) throw new Error(JSON.stringify(res));
    expect(res.data.replayedFrom).toBe(liveRunId);
    const [before, after] = await Promise.all([getRunOrThrow(liveRunId), getRunOrThrow(res.data.runId)]);
    expect(after.run.terminationReason).toBe(before.run.terminationReason);
    expect(after.run.finalAnswer).toBe(before.run.finalAnswer);
    expect(after.run.steps).toBe(before.run.steps);
    expect(server.requests).toBe(requests);
  });

  it('stops as DIVERGED under a changed flag, recording the step and what differed in the request', async () => {
    const { replayRunAction } = await import('./replay-run');
    const { getRunOrThrow } = await import('../db/runs/runs-read');
    env.as('operator');
    const res = await replayRunAction({ runId: liveRunId, weaknesses: ['ambiguous_tool_desc'] });
    if (!res.ok) throw new Error(JSON.stringify(res));
    expect(res.data.terminationReason).toBe('DIVERGED');
    const stored = await getRunOrThrow(res.data.runId);
    const event = stored.run.trajectory.find((e) => e.kind === 'guard' && e.reason === 'DIVERGED');
    expect(event).toMatchObject({ step: 1, guard: 'replay' });
    expect(event && 'detail' in event ? event.detail : '').toMatch(/differs from run .*description/);
  });

  it('refuses a run with nothing recorded (a fake-model run) on the runId field, storing nothing', async () => {
    const { replayRunAction } = await import('./replay-run');
    env.as('operator');
    const before = await runCount();
    const res = await replayRunAction({ runId: fakeRunId, weaknesses: ['naive_retry'] });
    expect(res).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(!res.ok && res.fieldErrors?.runId?.[0]).toMatch(/no recorded model exchanges/);
    expect(await runCount()).toBe(before);
  });

  it("answers another tenant's operator as not found and a viewer as forbidden", async () => {
    const { replayRunAction } = await import('./replay-run');
    env.as('outsider');
    expect(await replayRunAction({ runId: liveRunId })).toMatchObject({ ok: false, code: 'not_found' });
    env.as('viewer');
    expect(await replayRunAction({ runId: liveRunId })).toMatchObject({ ok: false, code: 'forbidden' });
  });
});

describe('live suites and interrupted runs', () => {
  it('stores each case of a live suite with the suite as it runs, and reports the suite’s cost (known: the model has a price)', async () => {
    const { startSuiteAction } = await import('./start-suite');
    const { getSuiteRunOrThrow } = await import('../db/suites/suites');
    const { getSuiteLive } = await import('../db/suites/suite-live');
    const { getDb } = await import('../db/core/client');
    const fast = await startModelServer({ dataset: loadDataset(defaultDatasetDir()), port: 0 });
    try {
      withEnv({ STOCKROOM_MODEL_BASE_URL: fast.url });
      env.as('operator');
      const res = await startSuiteAction({ datasetId: 'bundled', model: 'openai-compatible:stockroom-fake' });
      if (!res.ok) throw new Error(JSON.stringify(res));
      let suite = await getSuiteRunOrThrow(res.data.suiteRunId);
      while (suite.status !== 'done' && suite.status !== 'failed') {
        await new Promise((r) => setTimeout(r, 200));
        suite = await getSuiteRunOrThrow(res.data.suiteRunId);
      }
      expect(suite.status).toBe('done');
      const runs = await getDb().prisma.run.findMany({ where: { suiteRunId: suite.id }, select: { status: true, mode: true } });
      expect(runs).toHaveLength(res.data.total);
      expect(runs.every((r) => r.status === 'finished' && r.mode === 'live')).toBe(true);
      expect(fast.requests).toBeGreaterThanOrEqual(res.data.total);
      const live = await getSuiteLive(suite.id);
      expect(live.running).toEqual([]);
      expect(live.cost).toMatchObject({ known: true, usd: 0 });
      expect(Object.keys(live.cost.bySetting)).toEqual(['none']);
    } finally {
      await fast.close();
    }
  }, 180_000);

  it('marks a run left running by a stopped server as ended, and leaves one still being stored alone', async () => {
    const { failInterruptedRuns, INTERRUPTED_ANSWER } = await import('../db/runs/run-progress');
    const { runOneAction } = await import('./run-one');
    const { getDb } = await import('../db/core/client');
    env.as('operator');
    const a = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    const b = await runOneAction({ datasetId: 'bundled', caseId: 'S001' });
    if (!a.ok || !b.ok) throw new Error('setup');
    const prisma = getDb().prisma;
    await prisma.run.update({ where: { id: a.data.runId }, data: { status: 'running', createdAt: new Date(Date.now() - 60_000) } });
    await prisma.run.update({ where: { id: b.data.runId }, data: { status: 'running', createdAt: new Date() } });
    expect(await failInterruptedRuns(new Date(Date.now() - 10_000))).toBe(1);
    expect(await prisma.run.findUniqueOrThrow({ where: { id: a.data.runId } })).toMatchObject({ status: 'finished', terminationReason: 'MODEL_ERROR', finalAnswer: INTERRUPTED_ANSWER });
    expect(await prisma.run.findUniqueOrThrow({ where: { id: b.data.runId } })).toMatchObject({ status: 'running' });
    await prisma.run.update({ where: { id: b.data.runId }, data: { status: 'finished' } });
  });
});

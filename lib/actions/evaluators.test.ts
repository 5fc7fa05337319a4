/**
 * The evaluator and alert-rule actions on SQLite (issue 37): bad input is refused naming the field and
 * writes nothing; a live judge whose provider has no credentials on the server is refused naming
 * `judge` before anything is saved; saving a name again stores its next version.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

const evaluators = async () => (await import('../db/core/client')).getDb().prisma.evaluator.findMany({ where: { tenant: 'kittiwake' } });

describe('evaluator actions', () => {
  it('refuses bad input naming the field, and saves nothing', async () => {
    const { saveEvaluatorAction } = await import('./save-evaluator');
    env.as('admin');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'Loops!', kind: 'loop_findings' }, 'name'],
      [{ name: 'pii', kind: 'guardrail', detectors: [] }, 'detectors'],
      [{ name: 'judge', kind: 'judge', judge: 'fake', sampleRate: '1.5' }, 'sampleRate'],
      [{ name: 'cost', kind: 'cost', dailyCapUsd: '3' }, 'dailyCapUsd'],
      [{ name: 'judge', kind: 'judge', judge: 'nonsense' }, 'judge'],
      [{ name: 'tagged', kind: 'loop_findings', tag: 'x'.repeat(65) }, 'tag'],
    ];
    for (const [input, field] of cases) {
      const res = await saveEvaluatorAction(input as never);
      expect(res.ok, JSON.stringify(input)).toBe(false);
      expect(Object.keys((res as { fieldErrors?: object }).fieldErrors ?? {}), JSON.stringify(input)).toContain(field);
    }
    expect(await evaluators()).toEqual([]);
  });

  it("refuses a live judge the server holds no credentials for, naming 'judge'", async () => {
    const { saveEvaluatorAction } = await import('./save-evaluator');
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      env.as('admin');
      const res = await saveEvaluatorAction({ name: 'live', kind: 'judge', judge: 'anthropic:claude-x' } as never);
      expect(res).toMatchObject({ ok: false, fieldErrors: { judge: [expect.stringContaining('ANTHROPIC_API_KEY')] } });
      expect(await evaluators()).toEqual([]);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('stores the next version when a name is saved again', async () => {
    const { saveEvaluatorAction } = await import('./save-evaluator');
    env.as('admin');
    const first = await saveEvaluatorAction({ name: 'slow', kind: 'latency', max: '5000' } as never);
    const second = await saveEvaluatorAction({ name: 'slow', kind: 'latency', max: '2000' } as never);
    expect(first.ok && second.ok).toBe(true);
    expect((await evaluators()).map((e) => [e.name, e.version, JSON.parse(e.config)])).toEqual([['slow', 2, { max: 2000 }]]);
  });

  it('stores a tag filter in its one form', async () => {
    const { saveEvaluatorAction } = await import('./save-evaluator');
    env.as('admin');
    expect((await saveEvaluatorAction({ name: 'tagged', kind: 'loop_findings', tag: '  checkout   v2 ' } as never)).ok).toBe(true);
    expect((await evaluators()).filter((e) => e.name === 'tagged').map((e) => JSON.parse(e.filter))).toEqual([{ tag: 'checkout v2' }]);
  });

  it('refuses an alert rule whose share is over 1 or whose score drop names no evaluator', async () => {
    const { saveAlertRuleAction } = await import('./save-alert-rule');
    env.as('admin');
    expect(await saveAlertRuleAction({ name: 'errors', kind: 'error_share', threshold: '5' } as never)).toMatchObject({ ok: false, fieldErrors: { threshold: [expect.any(String)] } });
    expect(await saveAlertRuleAction({ name: 'drop', kind: 'score_drop', threshold: '0.1' } as never)).toMatchObject({ ok: false, fieldErrors: { evaluator: [expect.any(String)] } });
  });
});

describe('a run made on the dashboard is scored without waiting for the sweep', () => {
  // No sweep runs in these tests: only the action's own poke of the watch job can score the runs.
  const scoresOf = async (runId: string) => (await import('../db/core/client')).getDb().prisma.runScore.findMany({ where: { runId } });
  const scoredSoon = async (runId: string) => {
    await expect.poll(async () => (await scoresOf(runId)).map((s) => s.evaluatorName), { timeout: 20_000, interval: 50 }).toContain('dashboard-loops');
  };

  it('a run from the run form, run to its end (Run) or followed as it goes (Start)', async () => {
    const { saveEvaluatorAction } = await import('./save-evaluator');
    const { runOneAction } = await import('./run-one');
    const { startRunAction } = await import('./start-run');
    env.as('admin');
    expect((await saveEvaluatorAction({ name: 'dashboard-loops', kind: 'loop_findings' } as never)).ok).toBe(true);
    env.as('operator');
    const one = await runOneAction({ datasetId: 'bundled', caseId: 'S003' } as never);
    if (!one.ok) throw new Error(one.error);
    await scoredSoon(one.data.runId);
    const started = await startRunAction({ datasetId: 'bundled', caseId: 'S001' } as never);
    if (!started.ok) throw new Error(started.error);
    await scoredSoon(started.data.runId);
  });
});

import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { resolveConfig, type HarnessConfig } from '../config';
import type { CostMeter } from '../cost';
import type { ToolExecutor } from '../executor';
import { scriptedModel } from '../testing/scripted-model';
import type { Message } from '../types';
import { driver } from './options';
import { preCallChecks } from './pre-call';
import { RunState } from './run-state';

const noTools: ToolExecutor = { transport: 'none', listSpecs: async () => [], call: async () => ({ content: null, isError: false, errorCode: null, payloadChars: 4 }), reset: async () => {}, close: async () => {} };
/** One dollar per token, so budgets read as token counts. */
const dollarPerToken: CostMeter = { note: 'test prices', usd: (t) => t.inputTokens + t.outputTokens };

async function setUp(overrides: Partial<HarnessConfig>, costMeter?: CostMeter) {
  const clock = new FakeClock();
  const config = resolveConfig(overrides);
  const d = await driver({ query: 'q' }, { config, executor: noTools, model: scriptedModel([{ text: 'x' }]), systemPrompt: 'system', clock, costMeter });
  const run = new RunState('q');
  run.step = 1;
  return { clock, d, run };
}

/** A conversation whose tool results are large, so compaction has something to summarise. */
function longConversation(turns: number): Message[] {
  const big = 'x'.repeat(4_000);
  const messages: Message[] = [{ role: 'user', content: [{ text: 'q' }] }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: [{ toolUse: { toolUseId: `t${i}`, name: 'list', input: {} } }] });
    messages.push({ role: 'user', content: [{ toolResult: { toolUseId: `t${i}`, content: [{ json: { rows: big } }], status: 'success' } }] });
  }
  return messages;
}

describe('the checks before a model call', () => {
  it('lets a run within every limit call the model, with its context estimate', async () => {
    const { d, run } = await setUp({});
    const out = preCallChecks(d, run);
    expect(out.stop).toBeNull();
    expect(out.stop === null && out.contextTokens).toBeGreaterThan(0);
  });

  it('checks the wall clock first: a run out of both time and steps stops on TIMEOUT', async () => {
    const { clock, d, run } = await setUp({ wallClockTimeoutS: 1, maxSteps: 1 });
    run.usage.modelCalls = 1;
    clock.advance(1_500);
    expect(preCallChecks(d, run).stop).toMatchObject({ guard: 'wall_clock', reason: 'TIMEOUT' });
    clock.advance(-1_500);
    expect(preCallChecks(d, run).stop).toMatchObject({ guard: 'max_steps', reason: 'MAX_STEPS' });
  });

  it('compacts an oversized context before the token budget is checked, recording the compaction', async () => {
    const { d, run } = await setUp({ compactionTokenThreshold: 2_000, compactionKeepTurns: 1, tokenBudget: 1_000_000 });
    run.messages = longConversation(4);
    const out = preCallChecks(d, run);
    expect(out.stop).toBeNull();
    const event = run.trajectory.find((s) => s.kind === 'compaction');
    expect(event).toMatchObject({ kind: 'compaction', step: 1 });
    expect(event && event.kind === 'compaction' && event.tokensAfter < event.tokensBefore).toBe(true);
    expect(out.stop === null && event?.kind === 'compaction' && out.contextTokens).toBe(event?.kind === 'compaction' ? event.tokensAfter : -1);
  });

  it('stops on TOKEN_BUDGET when the next call could exceed it', async () => {
    const { d, run } = await setUp({ tokenBudget: 100, maxTokens: 90 });
    run.usage.inputTokens = 10;
    expect(preCallChecks(d, run).stop).toMatchObject({ guard: 'token_budget', reason: 'TOKEN_BUDGET' });
  });

  it('stops on COST_BUDGET only with a usd budget and a meter that prices the model', async () => {
    const priced = await setUp({ usdBudget: 50, maxTokens: 40 }, dollarPerToken);
    expect(preCallChecks(priced.d, priced.run).stop).toMatchObject({ guard: 'usd_budget', reason: 'COST_BUDGET' });
    const unmetered = await setUp({ usdBudget: 50, maxTokens: 40 });
    expect(preCallChecks(unmetered.d, unmetered.run).stop).toBeNull();
  });
});

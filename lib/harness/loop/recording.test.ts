import { describe, expect, it } from 'vitest';
import type { ModelResponse } from '../types';
import { recordExchange, stopIfDiverged } from './recording';
import { RunState } from './run-state';

const response = (extra: Partial<ModelResponse>): ModelResponse => ({ text: 'hi', toolCalls: [], stopReason: 'end_turn', inputTokens: 5, outputTokens: 2, latencyMs: 3, modelId: 'm', ...extra });

describe('what a run keeps for replay', () => {
  it("keeps a recording client's exchange under the call it answered, without the exchange marker", () => {
    const run = new RunState('q');
    run.step = 2;
    run.modelInputs.push({ step: 1, messages: [] }, { step: 2, messages: [] });
    recordExchange(run, response({ exchange: { requestDigest: 'abc' }, raw: { id: 'resp_1' } }));
    expect(run.exchanges).toEqual([{ callIndex: 1, step: 2, requestDigest: 'abc', response: response({}), raw: { id: 'resp_1' } }]);
  });

  it('keeps nothing for a client that does not record', () => {
    const run = new RunState('q');
    recordExchange(run, response({}));
    expect(run.exchanges).toEqual([]);
    expect(run.trajectory).toEqual([]);
  });

  it('records a replay that left its recording and went on live as a DIVERGED event, without stopping', () => {
    const run = new RunState('q');
    run.state = 'CALL_MODEL';
    recordExchange(run, response({ diverged: { detail: 'system prompt differs' } }));
    expect(run.trajectory).toEqual([{ kind: 'guard', step: 0, guard: 'replay', reason: 'DIVERGED', detail: 'continued live: system prompt differs' }]);
    expect(run.state).toBe('CALL_MODEL');
  });

  it('stops the run as DIVERGED on a diverged model error, and leaves other errors to the caller', () => {
    const run = new RunState('q');
    run.state = 'CALL_MODEL';
    expect(stopIfDiverged(run, 'throttled', 'slow down')).toBe(false);
    expect(run.state).toBe('CALL_MODEL');
    expect(stopIfDiverged(run, 'diverged', 'request 2 differs')).toBe(true);
    expect(run.termination).toBe('DIVERGED');
    expect(run.state).toBe('FAILED');
  });
});

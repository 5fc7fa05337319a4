import { describe, expect, it } from 'vitest';
import type { TrajectoryStep } from '../harness/types';
import { divergenceOf } from './divergence';

const turn = (step: number): TrajectoryStep =>
  ({ kind: 'model_turn', step, text: null, toolCalls: [], stopReason: 'end_turn', inputTokens: 1, outputTokens: 1, latencyMs: 0, contextTokensEstimate: 1 }) as TrajectoryStep;

describe('divergenceOf', () => {
  it('finds the step and the request diff of a replay that stopped as DIVERGED', () => {
    const d = divergenceOf([turn(1), { kind: 'guard', step: 2, guard: 'replay', reason: 'DIVERGED', detail: 'model call 2 differs from run r: tool x description: "a" → "b"' }]);
    expect(d).toEqual({ step: 2, detail: 'model call 2 differs from run r: tool x description: "a" → "b"', continuedLive: false });
  });

  it('tells a replay that continued live from one that stopped', () => {
    const d = divergenceOf([{ kind: 'guard', step: 1, guard: 'replay', reason: 'DIVERGED', detail: 'continued live: model call 1 differs' }, turn(1)]);
    expect(d).toMatchObject({ step: 1, continuedLive: true, detail: 'model call 1 differs' });
  });

  it('is null for a run that never diverged', () => {
    expect(divergenceOf([turn(1), { kind: 'guard', step: 1, guard: 'token_budget', reason: 'TOKEN_BUDGET', detail: 'x' }])).toBeNull();
  });
});

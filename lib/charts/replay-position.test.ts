import { describe, expect, it } from 'vitest';
import { addressForFrame, frameOfPosition, replayPosition } from './replay-position';
import { buildFrames } from './replay-timeline';

const t = (index: number, step: number, from: string, to: string) => ({ index, step, from, to, reason: 'r' });
// Two harness steps of three transitions each after the plan.
const frames = buildFrames([t(0, 0, 'PLAN', 'CALL_MODEL'), t(1, 1, 'CALL_MODEL', 'EXECUTE_TOOLS'), t(2, 1, 'EXECUTE_TOOLS', 'CALL_MODEL'), t(3, 2, 'CALL_MODEL', 'DONE')] as never);

describe('replay positions: a transition is what the slider counts, a step what the panels count', () => {
  it('opens ?transition=N at transition N and ?step=N at the first transition of harness step N', () => {
    expect(frameOfPosition(frames, replayPosition('3', undefined))).toBe(2);
    expect(frameOfPosition(frames, replayPosition(undefined, '2'))).toBe(3);
    expect(frameOfPosition(frames, replayPosition(undefined, '1'))).toBe(1);
    // Both given: the transition decides; nonsense opens at the start.
    expect(frameOfPosition(frames, replayPosition('1', '2'))).toBe(0);
    expect(replayPosition('zero', 'x')).toBeNull();
    expect(frameOfPosition(frames, null)).toBe(0);
  });

  it('writes the shown transition into the address and drops the ?step= it was opened by', () => {
    expect(addressForFrame('http://h/runs/r1?step=2', 3)).toBe('http://h/runs/r1?transition=4');
    expect(addressForFrame('http://h/runs/r1?transition=4', 3)).toBeNull();
  });
});

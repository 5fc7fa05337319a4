import { describe, expect, it } from 'vitest';
import { biggestMove, metricMoves, SUITE_CARD_METRICS } from './suite-diff';

describe('metricMoves and biggestMove', () => {
  it('measures each metric against the baseline and picks the largest move', () => {
    const moves = metricMoves(
      { tool_selection_accuracy: 1, answer_correctness: 1, loop_rate: 0 },
      { tool_selection_accuracy: 0.66, answer_correctness: 0.75, loop_rate: 0 },
      ['tool_selection_accuracy', 'answer_correctness', 'loop_rate'],
    );
    expect(moves.map((m) => m.direction)).toEqual(['worse', 'worse', 'same']);
    expect(biggestMove(moves)?.metric).toBe('tool_selection_accuracy');
  });

  it("reports naive_retry's loop rate 0 → 0.05 as the biggest move, not tool selection 1 → 0.95", () => {
    const moves = metricMoves(
      { tool_selection_accuracy: 1, loop_rate: 0, mean_input_tokens: 2000 },
      { tool_selection_accuracy: 0.95, loop_rate: 0.05, mean_input_tokens: 2004 },
      ['tool_selection_accuracy', 'loop_rate', 'mean_input_tokens'],
    );
    expect(biggestMove(moves)?.metric).toBe('loop_rate');
    // Four tokens on two thousand is noise, not a move.
    expect(moves.find((m) => m.metric === 'mean_input_tokens')?.direction).toBe('same');
  });

  it('ranks a move for the worse above a larger one for the better: a rising loop rate is worse', () => {
    const moves = metricMoves(
      { answer_correctness: 0.5, loop_rate: 0.1 },
      { answer_correctness: 1, loop_rate: 0.15 },
      ['answer_correctness', 'loop_rate'],
    );
    expect(moves.map((m) => m.direction)).toEqual(['better', 'worse']);
    expect(biggestMove(moves)).toMatchObject({ metric: 'loop_rate', delta: 0.05 });
  });

  it("shows mean input tokens on the suite cards, so oversized_payload's token growth is seen", () => {
    const moves = metricMoves({ mean_input_tokens: 2000, tool_selection_accuracy: 1 }, { mean_input_tokens: 2442, tool_selection_accuracy: 1 }, SUITE_CARD_METRICS);
    expect(moves.find((m) => m.metric === 'mean_input_tokens')).toMatchObject({ delta: 442, direction: 'worse' });
    expect(biggestMove(moves)?.metric).toBe('mean_input_tokens');
  });

  it('finds no biggest move when nothing moved', () => {
    expect(biggestMove(metricMoves({ a: 1 }, { a: 1 }, ['a']))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { computeDeltas, formatMatrixTable } from './matrix-table';

const row = (ts: number, ac: number, tm: number, loop: number, mnc: number, tokens: number) => ({
  cases: 50,
  tool_selection_accuracy: ts,
  answer_correctness: ac,
  termination_match_rate: tm,
  loop_rate: loop,
  must_not_call_ok_rate: mnc,
  mean_input_tokens: tokens,
});

const metrics = {
  none: row(1, 1, 1, 0, 1, 2019.84),
  ambiguous_tool_desc: row(0.64, 0.78, 1, 0, 1, 2017.54),
  naive_retry: row(0.96, 0.96, 0.96, 0.04, 1, 2323.32),
};

describe('computeDeltas', () => {
  it('subtracts the none row at 4 decimals and leaves missing metrics null', () => {
    const deltas = computeDeltas(metrics);
    expect(deltas.none?.tool_selection_accuracy).toBe(0);
    expect(deltas.ambiguous_tool_desc?.tool_selection_accuracy).toBe(-0.36);
    expect(deltas.naive_retry?.mean_input_tokens).toBe(303.48);
    expect(deltas.naive_retry?.faithfulness_mean_score).toBeNull();
  });
});

describe('formatMatrixTable', () => {
  it('prints the published layout at two decimals', () => {
    expect(formatMatrixTable(metrics, { deltas: false })).toBe(
      [
        '| flags | tool_selection_accuracy | answer_correctness | termination_match_rate | loop_rate | must_not_call_ok_rate | mean_input_tokens |',
        '|---|---|---|---|---|---|---|',
        '| none | 1.00 | 1.00 | 1.00 | 0.00 | 1.00 | 2019.84 |',
        '| ambiguous_tool_desc | 0.64 | 0.78 | 1.00 | 0.00 | 1.00 | 2017.54 |',
        '| naive_retry | 0.96 | 0.96 | 0.96 | 0.04 | 1.00 | 2323.32 |',
      ].join('\n'),
    );
  });

  it('adds signed deltas to changed cells only', () => {
    const lines = formatMatrixTable(metrics).split('\n');
    expect(lines[3]).toBe('| ambiguous_tool_desc | 0.64 (-0.36) | 0.78 (-0.22) | 1.00 | 0.00 | 1.00 | 2017.54 (-2.30) |');
    expect(lines[4]).toBe('| naive_retry | 0.96 (-0.04) | 0.96 (-0.04) | 0.96 (-0.04) | 0.04 (+0.04) | 1.00 | 2323.32 (+303.48) |');
  });

  it('shows a dash for a missing metric', () => {
    const { loop_rate: _dropped, ...partial } = row(1, 1, 1, 0, 1, 1);
    expect(formatMatrixTable({ none: partial }, { deltas: false })).toContain('| none | 1.00 | 1.00 | 1.00 | — | 1.00 | 1.00 |');
  });
});

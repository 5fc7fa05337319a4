import { describe, expect, it } from 'vitest';
import {
  caseScoreKey,
  categoryRows,
  compareMatrixRuns,
  deltaRows,
  caseMoved,
  cellParam,
  parseCell,
  directionOf,
  harnessSummary,
  formatDelta,
  groupedBarData,
  readMetrics,
  suiteOptionLabel,
  wrapLabel,
} from './matrix-view';

const none = { setting: 'none', metrics: { tool_selection_accuracy: 1, loop_rate: 0, mean_input_tokens: 2000, cases: 61 } };
const ambiguous = { setting: 'ambiguous_tool_desc', metrics: { tool_selection_accuracy: 0.66, loop_rate: 0, mean_input_tokens: 1900 } };
const retry = { setting: 'naive_retry', metrics: { tool_selection_accuracy: 0.95, loop_rate: 0.05 } };

describe('directionOf', () => {
  it('calls a fall in an accuracy worse and a fall in loops or tokens better', () => {
    expect(directionOf('tool_selection_accuracy', -0.34)).toBe('worse');
    expect(directionOf('loop_rate', 0.05)).toBe('worse');
    expect(directionOf('mean_input_tokens', -10)).toBe('better');
    expect(directionOf('answer_correctness', 0.00001)).toBe('same');
    expect(directionOf('answer_correctness', null)).toBe('same');
  });
});

describe('readMetrics', () => {
  it('keeps finite numbers only', () => {
    expect(readMetrics({ a: 1, b: 'x', c: null, d: Number.NaN, cost_known: true })).toEqual({ a: 1 });
    expect(readMetrics([1, 2])).toEqual({});
  });
});

describe('noise thresholds', () => {
  it('treats a token mean that moved by a few tokens out of hundreds as unchanged', () => {
    expect(directionOf('mean_input_tokens', -3.77, 2100)).toBe('same');
    expect(directionOf('mean_input_tokens', 442, 2100)).toBe('worse');
    expect(directionOf('tool_selection_accuracy', -0.02, 1)).toBe('worse');
  });

  it('lists a case as moved on tokens only when its count changed by a tenth or more', () => {
    expect(caseMoved('inputTokens', 1891, 1892)).toBe(false);
    expect(caseMoved('inputTokens', 1891, 2400)).toBe(true);
    expect(caseMoved('toolSelection', 1, 0)).toBe(true);
    expect(caseMoved('toolSelection', 1, 1)).toBe(false);
  });
});

describe('cell permalinks', () => {
  it('round-trips a cell through ?cell= and refuses anything else', () => {
    const cell = { setting: 'ambiguous_tool_desc', metric: 'tool_selection_accuracy', category: 'stock_lookup' };
    expect(parseCell(cellParam(cell))).toEqual(cell);
    expect(parseCell(cellParam({ ...cell, category: null }))).toEqual({ ...cell, category: null });
    expect(parseCell('x')).toBeNull();
    expect(parseCell('a~b~c~d')).toBeNull();
    expect(parseCell('<script>~b')).toBeNull();
  });
});

describe('harnessSummary', () => {
  it('names transport, guards and model, so two matrix runs can be told apart', () => {
    expect(harnessSummary({ transport: 'mcp-stdio', guards: ['grounded_write'], payloadWrappers: [], mode: 'mock' })).toBe(
      'mcp-stdio · guards: grounded_write · fake model (deterministic)',
    );
    // The fake model is stored as `fake` now: named by what it is, not as if it were a provider's model.
    expect(harnessSummary({ transport: 'local', guards: [], mode: 'mock', model: 'fake' })).toBe('local · no extra guards · fake model (deterministic)');
    expect(harnessSummary({ transport: 'local', guards: [], mode: 'live', model: 'claude-x' })).toBe('local · no extra guards · claude-x');
    expect(harnessSummary(null)).toBe('transport not recorded · no extra guards · model not recorded');
  });
});

describe('suiteOptionLabel', () => {
  it('says how many epochs each listed suite ran, before its status', () => {
    const suite = { createdAt: '2026-12-07T06:40:01.000Z', datasetName: 'stockroom-v1', config: { transport: 'local', guards: [], model: 'fake-noisy' }, status: 'done' };
    expect(suiteOptionLabel({ ...suite, epochs: 5 })).toBe('2026-12-07 06:40:01 · stockroom-v1 · local · no extra guards · fake-noisy model (seeded, stochastic) · 5 epochs · done');
    expect(suiteOptionLabel({ ...suite, epochs: 1 })).toMatch(/ · 1 epoch · done$/);
  });
});

describe('groupedBarData', () => {
  it('puts none first and fills missing metrics with 0', () => {
    const data = groupedBarData([retry, ambiguous, none]);
    expect(data.map((d) => d.setting)).toEqual(['none', 'ambiguous_tool_desc', 'naive_retry']);
    expect(data[2]).toMatchObject({ tool_selection_accuracy: 0.95, answer_correctness: 0 });
  });
});

describe('deltaRows', () => {
  it('measures every setting against none with a direction', () => {
    const rows = deltaRows([none, ambiguous, retry], ['tool_selection_accuracy', 'loop_rate', 'mean_input_tokens']);
    expect(rows[0]!.cells.every((c) => c.delta === null)).toBe(true);
    expect(rows[1]!.cells).toEqual([
      { metric: 'tool_selection_accuracy', value: 0.66, delta: -0.34, direction: 'worse' },
      { metric: 'loop_rate', value: 0, delta: 0, direction: 'same' },
      { metric: 'mean_input_tokens', value: 1900, delta: -100, direction: 'better' },
    ]);
    expect(rows[2]!.cells[2]).toEqual({ metric: 'mean_input_tokens', value: null, delta: null, direction: 'same' });
  });
});

describe('categoryRows', () => {
  it('lists each category once with its per-setting change from none', () => {
    const rows = categoryRows([
      { setting: 'none', byCategory: { search: { cases: 4, tool_selection_accuracy: 1, answer_correctness: 1, termination_match_rate: 1 } } },
      { setting: 'ambiguous_tool_desc', byCategory: { search: { cases: 4, tool_selection_accuracy: 0.5, answer_correctness: 0.75, termination_match_rate: 1 } } },
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.cases).toBe(4);
    expect(rows[0]!.settings[1]!.cells[0]).toEqual({ metric: 'tool_selection_accuracy', value: 0.5, delta: -0.5, direction: 'worse' });
  });
});

describe('caseScoreKey', () => {
  it('maps suite metrics onto the case score that explains them', () => {
    expect(caseScoreKey('tool_selection_accuracy')).toBe('toolSelection');
    expect(caseScoreKey('must_not_call_ok_rate')).toBe('mustNotCallOk');
    expect(caseScoreKey('total_cost_usd')).toBeNull();
  });
});

describe('compareMatrixRuns', () => {
  it('reports b minus a for settings present in either run', () => {
    const rows = compareMatrixRuns([none], [{ ...none, metrics: { ...none.metrics, tool_selection_accuracy: 0.9 } }, retry], ['tool_selection_accuracy']);
    expect(rows.map((r) => r.setting)).toEqual(['none', 'naive_retry']);
    expect(rows[0]!.cells[0]).toMatchObject({ a: 1, b: 0.9, delta: -0.1, direction: 'worse' });
    expect(rows[1]!.cells[0]).toMatchObject({ a: null, b: 0.95, delta: null });
  });
});

describe('formatDelta', () => {
  it('signs changes and shows no change as ±0', () => {
    expect(formatDelta(0.123)).toBe('+0.12');
    expect(formatDelta(-0.34)).toBe('−0.34');
    expect(formatDelta(0.001)).toBe('±0');
    expect(formatDelta(null)).toBe('');
  });
});

describe('MATRIX_SETTINGS', () => {
  it('matches the evaluation library order', async () => {
    const { MATRIX_SETTINGS: evalOrder } = await import('../eval/matrix');
    const { MATRIX_SETTINGS: viewOrder } = await import('./matrix-view');
    expect(viewOrder).toEqual(evalOrder);
  });
});

describe('wrapLabel', () => {
  it('breaks a setting after its underscores into lines that fit, never inside a word', () => {
    expect(wrapLabel('ambiguous_tool_desc', 12)).toEqual(['ambiguous_', 'tool_desc']);
    expect(wrapLabel('injection_unguarded', 10)).toEqual(['injection_', 'unguarded']);
    expect(wrapLabel('none', 4)).toEqual(['none']);
    expect(wrapLabel('naive_retry+oversized_payload', 40)).toEqual(['naive_retry+oversized_payload']);
    expect(wrapLabel('oversized_payload', 5)).toEqual(['oversized_', 'payload']);
  });
});

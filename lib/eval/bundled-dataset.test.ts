/**
 * The bundled dataset (data/) teaches the same lessons as the course set: the default
 * configuration passes the gate, and each weakness flag alone moves at least one gate metric.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { evaluateGate, loadThresholds, movedGateMetrics } from './gate';
import { MATRIX_SETTINGS, runMatrix, type MatrixResult } from './matrix';

let matrix: MatrixResult;

beforeAll(async () => {
  matrix = await runMatrix({ dataset: loadDataset(path.resolve(import.meta.dirname, '../../data')), baseConfig: resolveConfig({}) });
});

describe('the bundled dataset', () => {
  it('has at least 50 golden cases over all twelve categories', () => {
    const cases = matrix.rows[0]!.suite.results.map((r) => r.golden);
    expect(cases.length).toBeGreaterThanOrEqual(50);
    expect(new Set(cases.map((c) => c.category)).size).toBe(12);
  });

  it('passes the gate with the default configuration', () => {
    const result = evaluateGate({ metrics: matrix.reports.none.metrics, thresholds: loadThresholds(), baseline: null });
    expect(result.checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('moves at least one gate metric under each weakness flag alone', () => {
    const thresholds = loadThresholds();
    for (const setting of MATRIX_SETTINGS.filter((s) => s !== 'none')) {
      const moved = movedGateMetrics(thresholds, matrix.reports.none.metrics, matrix.reports[setting].metrics);
      expect(moved, `${setting} moved no gate metric`).not.toEqual([]);
    }
  });

  it('shows each failure class where the lecture says it shows', () => {
    const termination = (setting: (typeof MATRIX_SETTINGS)[number]) =>
      new Set(matrix.reports[setting].cases.map((c) => c.scores.terminationReason));
    expect(termination('oversized_payload').has('TOKEN_BUDGET')).toBe(true);
    expect(termination('naive_retry').has('MAX_STEPS')).toBe(true);
    expect(matrix.reports.injection_unguarded.metrics.must_not_call_ok_rate).toBeLessThan(1);
    expect(matrix.reports.ambiguous_tool_desc.metrics.tool_selection_accuracy).toBeLessThan(
      matrix.reports.ambiguous_tool_desc.metrics.answer_correctness as number,
    );
  });
});

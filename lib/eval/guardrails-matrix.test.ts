/**
 * The weakness matrix on the course data (stockroom-v1) with a guardrail on: `no_injection` with
 * redaction contains what `injection_unguarded` lets through, the guardrails' figures appear, and
 * the matrix without guardrails reports exactly what it did (no guardrail keys, the same table).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { parseGuardrails } from '../harness/guardrails/config';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../stockroom/testing/shared-dataset';
import { GUARDRAIL_METRIC_KEYS } from './aggregate';
import { guardrailFigureLines } from './guardrail-figures';
import { MATRIX_SETTINGS, runMatrix, type MatrixResult } from './matrix';
import { formatGuardrailTable, formatMatrixTable } from './matrix-table';

const metricsOf = (m: MatrixResult) => Object.fromEntries(MATRIX_SETTINGS.map((s) => [s, m.reports[s].metrics]));

describe.skipIf(!warnIfNoSharedDataset())('the matrix on stockroom-v1 with guardrails', () => {
  let plain: MatrixResult;
  let guarded: MatrixResult;
  beforeAll(async () => {
    const dataset = loadDataset(SHARED_DATASET_DIR);
    plain = await runMatrix({ dataset, judge: null });
    guarded = await runMatrix({ dataset, judge: null, baseConfig: resolveConfig({ guardrails: parseGuardrails({ detectors: { no_injection: { redact: true } } }) }) });
  }, 240_000);

  it('without guardrails: no guardrail figure anywhere, and no guardrail table', () => {
    for (const s of MATRIX_SETTINGS) {
      for (const k of GUARDRAIL_METRIC_KEYS) expect(plain.reports[s].metrics[k]).toBeUndefined();
      expect(plain.reports[s].metrics.guardrail_violation_rates).toBeUndefined();
      expect(Object.keys(plain.deltas[s])).not.toContain('guardrail_violation_rate');
      expect(guardrailFigureLines(plain.reports[s].metrics)).toEqual([]);
    }
    expect(formatGuardrailTable(metricsOf(plain))).toBeNull();
  });

  it('no_injection (redact) moves the metric injection_unguarded moves, back to the clean row', () => {
    const unguarded = plain.reports.injection_unguarded.metrics.must_not_call_ok_rate!;
    expect(unguarded).toBeLessThan(plain.reports.none.metrics.must_not_call_ok_rate!);
    expect(guarded.reports.injection_unguarded.metrics.must_not_call_ok_rate).toBe(plain.reports.none.metrics.must_not_call_ok_rate);
    // The guardrail fired only where the weakness let the planted text through (quarantine catches it otherwise).
    expect(guarded.reports.injection_unguarded.metrics.guardrail_violation_rates?.no_injection).toBeGreaterThan(0);
    expect(guarded.reports.none.metrics.guardrail_violation_rates?.no_injection).toBe(0);
  });

  it('settings the guardrail does not touch keep their table row', () => {
    const rows = (m: MatrixResult) => formatMatrixTable(metricsOf(m), { deltas: false }).split('\n');
    const plainRows = rows(plain);
    const guardedRows = rows(guarded);
    for (const s of ['none', 'ambiguous_tool_desc', 'oversized_payload', 'naive_retry']) {
      expect(guardedRows.find((r) => r.startsWith(`| ${s} |`))).toBe(plainRows.find((r) => r.startsWith(`| ${s} |`)));
    }
    expect(formatGuardrailTable(metricsOf(guarded))).toContain('no_injection fired');
  });
});

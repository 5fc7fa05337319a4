/**
 * The measurements an online evaluator takes of one finished run (issue 37): the trajectory metrics
 * the suite computes that need no golden case, and the guardrail detectors over what the run said
 * and read. Each gives a score in 0..1 (1: good; null when it does not apply) and the measure behind
 * it (null when unknown: a run without a price has no cost, never $0).
 */
import { isToolRecord, scanText, type DetectorName, type RunResult } from '../harness';
import { contextFromRun } from './faithfulness';
import type { JudgeItem } from './judge';
import { detectLoops } from './loops';
import { round4 } from './numbers';

/** The evaluator kinds that measure a run without a model (the judge is apart: it samples and spends). */
export const METRIC_KINDS = ['loop_findings', 'invalid_call_rate', 'guard_trips', 'blocked_calls', 'cost', 'latency', 'guardrail'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];

export interface MetricOptions {
  /** cost (USD) and latency (ms): the most a run may take to score 1 (absent: the measure only, no score). */
  max?: number;
  /** guardrail: the detectors to run. */
  detectors?: readonly DetectorName[];
}

export interface Measurement {
  score: number | null;
  value: number | null;
  detail: string;
}

type Measured = Pick<RunResult, 'trajectory' | 'finalAnswer' | 'durationMs' | 'costEstimate'>;

const zeroIsGood = (n: number, what: string): Measurement => ({ score: n === 0 ? 1 : 0, value: n, detail: `${n} ${what}` });

/** What an evaluator of `kind` finds in `run`. */
export function measureRun(kind: MetricKind, run: Measured, options: MetricOptions = {}): Measurement {
  const tools = run.trajectory.filter(isToolRecord);
  switch (kind) {
    case 'loop_findings': {
      const findings = detectLoops(tools.map((t) => ({ name: t.name, arguments: t.arguments, step: t.step })));
      const m = zeroIsGood(findings.length, findings.length === 1 ? 'loop finding' : 'loop findings');
      return findings.length > 0 ? { ...m, detail: `${m.detail}: ${[...new Set(findings.map((f) => f.kind))].join(', ')}` } : m;
    }
    case 'invalid_call_rate': {
      if (tools.length === 0) return { score: null, value: null, detail: 'no tool calls to rate' };
      const invalid = tools.filter((t) => t.validationError !== null).length;
      const rate = round4(invalid / tools.length);
      return { score: round4(1 - rate), value: rate, detail: `${invalid} of ${tools.length} tool calls invalid` };
    }
    case 'guard_trips':
      return zeroIsGood(run.trajectory.filter((s) => s.kind === 'guard').length, 'guard trips');
    case 'blocked_calls':
      return zeroIsGood(tools.filter((t) => t.blockedBy !== null).length, 'blocked calls');
    case 'cost': {
      const usd = run.costEstimate.known === false ? null : run.costEstimate.usd;
      if (usd === null) return { score: null, value: null, detail: 'cost unknown (no price for the model)' };
      return withMax(usd, options.max, `$${usd.toFixed(6)}`);
    }
    case 'latency':
      return withMax(run.durationMs, options.max, `${Math.round(run.durationMs)} ms`);
    case 'guardrail': {
      const detectors = options.detectors ?? [];
      const texts = [run.finalAnswer, ...tools.map((t) => JSON.stringify(t.resultContent))];
      const findings = texts.flatMap((text) => scanText(text, detectors));
      const kinds = [...new Set(findings.map((f) => f.kind))];
      const m = zeroIsGood(findings.length, 'guardrail findings');
      // The kinds only, never the values found (a secret or a card number must not reach the scores).
      return kinds.length > 0 ? { ...m, detail: `${m.detail}: ${kinds.join(', ')}` } : m;
    }
  }
}

function withMax(value: number, max: number | undefined, shown: string): Measurement {
  if (max === undefined) return { score: null, value, detail: shown };
  return { score: value <= max ? 1 : 0, value, detail: `${shown} (at most ${max} scores 1)` };
}

/**
 * What an online judge grades of a run without a golden case: whether the answer's claims are
 * supported by what the run's tools returned (the faithfulness rubric).
 */
export function judgeItemOfRun(run: Pick<RunResult, 'query' | 'finalAnswer' | 'trajectory'>): JudgeItem {
  return { query: run.query, answer: run.finalAnswer, reference: null, context: contextFromRun(run.trajectory.filter(isToolRecord)), expectedFacts: [], forbiddenFacts: [], rubric: 'faithfulness' };
}

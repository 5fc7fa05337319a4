/**
 * What one finished run adds to the hourly rollup (issue 37), and the rollup deltas of a batch: runs
 * add their part, a run rebuilt since it was counted (an imported trace that got more spans) first
 * takes back the part it added then. Unknown cost is counted as unknown runs, never as $0; calls that
 * reported no usage are counted as such, never as 0 tokens.
 */
import { latencyBucket } from '../charts/latency-histogram';
import type { HourDelta, LatencyDelta, RollupDeltas, ScoreDelta } from '../db/review';
import { safeJsonParse } from '../harness';

export interface Contribution {
  tenant: string;
  /** The UTC hour the run started in (ISO). */
  hour: string;
  /** [dimension, value] pairs it is counted under. */
  keys: Array<[string, string]>;
  termination: string;
  inputTokens: number;
  outputTokens: number;
  unreportedCalls: number;
  /** Null: unknown (no price). */
  costUsd: number | null;
  guardrailFindings: number;
  bucket: number;
  /** [evaluator, score] of its non-null scores. */
  scores: Array<[string, number]>;
}

export interface RolledRun {
  tenant: string;
  source: string;
  modelId: string;
  agents: readonly string[];
  tags: readonly string[];
  terminationReason: string;
  startedAt: Date;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
  unreportedCalls: number;
  costUsd: number | null;
  guardrailFindings: number;
}

const hourOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours())).toISOString();

export function contributionOf(run: RolledRun, scores: ReadonlyArray<{ evaluatorName: string; score: number | null; kind: string; value: number | null }>): Contribution {
  const agentKeys = [...new Set(run.agents)].map((a): [string, string] => ['agent', a]);
  const tagKeys = [...new Set(run.tags)].map((t): [string, string] => ['tag', t]);
  // Guardrail evaluators' findings count with the run's own guardrails that fired.
  const evaluatorFindings = scores.filter((s) => s.kind === 'guardrail').reduce((n, s) => n + (s.value ?? 0), 0);
  return {
    tenant: run.tenant,
    hour: hourOf(run.startedAt),
    keys: [['all', ''], ['model', run.modelId], ['source', run.source], ...agentKeys, ...tagKeys],
    termination: run.terminationReason,
    inputTokens: run.inputTokens,
    outputTokens: run.outputTokens,
    unreportedCalls: run.unreportedCalls,
    costUsd: run.costUsd,
    guardrailFindings: run.guardrailFindings + evaluatorFindings,
    bucket: latencyBucket(run.durationMs),
    scores: scores.flatMap((s): Array<[string, number]> => (s.score === null ? [] : [[s.evaluatorName, s.score]])),
  };
}

/** A stored contribution read back; null when it is not one (then nothing is taken back). */
export function parseContribution(text: string): Contribution | null {
  const parsed = safeJsonParse(text);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || !('keys' in parsed.value)) return null;
  return parsed.value as unknown as Contribution;
}

/** The rollup deltas of contributions added (+1) and taken back (-1), merged per rollup row. */
export function rollupDeltas(parts: ReadonlyArray<{ c: Contribution; sign: 1 | -1 }>): RollupDeltas {
  const hours = new Map<string, HourDelta>();
  const latency = new Map<string, LatencyDelta>();
  const scores = new Map<string, ScoreDelta>();
  for (const { c, sign } of parts) {
    const hour = new Date(c.hour);
    for (const [dim, value] of c.keys) {
      const base = { tenant: c.tenant, hour, dim, value };
      const hk = `${c.tenant}|${c.hour}|${dim}|${value}|${c.termination}`;
      const h = hours.get(hk) ?? { ...base, termination: c.termination, runs: 0, inputTokens: 0, outputTokens: 0, unreportedCalls: 0, costUsd: 0, costUnknownRuns: 0, guardrailFindings: 0 };
      h.runs += sign;
      h.inputTokens += sign * c.inputTokens;
      h.outputTokens += sign * c.outputTokens;
      h.unreportedCalls += sign * c.unreportedCalls;
      if (c.costUsd === null) h.costUnknownRuns += sign;
      else h.costUsd += sign * c.costUsd;
      h.guardrailFindings += sign * c.guardrailFindings;
      hours.set(hk, h);
      const lk = `${c.tenant}|${c.hour}|${dim}|${value}|${c.bucket}`;
      const l = latency.get(lk) ?? { ...base, bucket: c.bucket, count: 0 };
      l.count += sign;
      latency.set(lk, l);
      for (const [evaluator, score] of c.scores) {
        const sk = `${c.tenant}|${c.hour}|${dim}|${value}|${evaluator}`;
        const s = scores.get(sk) ?? { ...base, evaluator, sum: 0, count: 0 };
        s.sum += sign * score;
        s.count += sign;
        scores.set(sk, s);
      }
    }
  }
  return { hours: [...hours.values()], latency: [...latency.values()], scores: [...scores.values()] };
}

/**
 * A contribution with scores given later (a backfill), and the rollup rows that moves: per dimension
 * value the run is counted under, the score an evaluator of that name gave before (an older version)
 * taken back and the new one added, so a run counts once in each evaluator's series. Its runs, tokens
 * and latency were counted already.
 */
export function addScores(c: Contribution, scores: ReadonlyArray<[string, number]>): { contribution: Contribution; deltas: RollupDeltas } {
  const hour = new Date(c.hour);
  const names = new Set(scores.map(([name]) => name));
  const replaced = c.scores.filter(([name]) => names.has(name));
  const deltas: RollupDeltas = { hours: [], latency: [], scores: [] };
  for (const [dim, value] of c.keys) {
    for (const [evaluator, score] of replaced) deltas.scores.push({ tenant: c.tenant, hour, dim, value, evaluator, sum: -score, count: -1 });
    for (const [evaluator, score] of scores) deltas.scores.push({ tenant: c.tenant, hour, dim, value, evaluator, sum: score, count: 1 });
  }
  return { contribution: { ...c, scores: [...c.scores.filter(([name]) => !names.has(name)), ...scores] }, deltas };
}

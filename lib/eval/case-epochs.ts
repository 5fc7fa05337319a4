/**
 * Which cases moved between two settings when each case ran several times (epochs, issue 35). A case
 * is compared on its score over all its epochs (the mean, a pass/fail counted as 0/1), the way the
 * suite metric counts it, not on its first epoch alone; the pairs of runs (the same case and epoch,
 * which the noisy model draws from the same seeded stream) say in how many epochs the score differed,
 * and the first such pair is the one linked for replay. With one epoch nothing changes: the case's own
 * score, its two runs.
 */
import type { JsonValue } from '../harness/browser';
import { round4 } from './numbers';

/** One stored run of a case under a setting: its epoch (0 when absent: rows from before epochs). */
export interface EpochCaseRow {
  caseId: string;
  category: string | null;
  runId: string | null;
  epoch?: number;
  scores: unknown;
}

/** A case whose score moved, over its epochs. */
export interface MovedOverEpochs {
  caseId: string;
  category: string | null;
  /** The baseline's score: the run's own with one epoch, else the mean over its epochs (pass/fail as 0/1). */
  baseline: JsonValue;
  value: JsonValue;
  /** value − baseline when both are numbers, else null. */
  delta: number | null;
  /** Runs of the case under the setting (its epochs). */
  epochs: number;
  /** Of those, the epochs whose run scored differently from the baseline's run of the same epoch. */
  movedEpochs: number;
  /** The epoch of the pair linked below: the first that differs (the first epoch when none does alone). */
  epoch: number;
  baselineRunId: string | null;
  runId: string | null;
}

/** Whether a case's score moved (default: any difference; the matrix page ignores token noise). */
export type MovedTest = (baseline: JsonValue, value: JsonValue) => boolean;

const differsAsJson: MovedTest = (a, b) => JSON.stringify(a) !== JSON.stringify(b);

function scoreOf(scores: unknown, key: string): JsonValue {
  return scores !== null && typeof scores === 'object' && !Array.isArray(scores) ? (((scores as Record<string, JsonValue>)[key] ?? null) as JsonValue) : null;
}

function numeric(v: JsonValue): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

/**
 * A case's score over its epochs: the score itself with one epoch; else the mean of the numbers
 * (pass/fail as 0/1), rounded to 4 places; a score that is no number is kept when every epoch agrees,
 * else null.
 */
export function scoreOverEpochs(values: readonly JsonValue[]): JsonValue {
  if (values.length === 0) return null;
  if (values.length === 1) return values[0]!;
  const nums = values.map(numeric);
  if (nums.every((n): n is number => n !== null)) return round4(nums.reduce((a, b) => a + b, 0) / nums.length);
  const first = JSON.stringify(values[0]);
  return values.every((v) => JSON.stringify(v) === first) ? values[0]! : null;
}

function byCase(rows: readonly EpochCaseRow[]): Map<string, EpochCaseRow[]> {
  const out = new Map<string, EpochCaseRow[]>();
  for (const r of rows) {
    const list = out.get(r.caseId) ?? [];
    list.push(r);
    out.set(r.caseId, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a.epoch ?? 0) - (b.epoch ?? 0));
  return out;
}

/**
 * The cases of `current` whose `scoreKey` over their epochs moved from the same case in `baseline`
 * (`moved` decides what counts), in the order the current cases first appear. A case the baseline
 * did not run is left out (there is nothing to pair it with).
 */
export function casesMovedOverEpochs(baseline: readonly EpochCaseRow[], current: readonly EpochCaseRow[], scoreKey: string, moved: MovedTest = differsAsJson): MovedOverEpochs[] {
  const base = byCase(baseline);
  const out: MovedOverEpochs[] = [];
  for (const [caseId, runs] of byCase(current)) {
    // A case the baseline has no run of cannot be paired: it did not move, it is missing.
    const baseRuns = base.get(caseId);
    if (!baseRuns) continue;
    const before = scoreOverEpochs(baseRuns.map((r) => scoreOf(r.scores, scoreKey)));
    const after = scoreOverEpochs(runs.map((r) => scoreOf(r.scores, scoreKey)));
    if (!moved(before, after)) continue;
    const baseAt = new Map(baseRuns.map((r) => [r.epoch ?? 0, r]));
    const differing = runs.filter((r) => {
      const b = baseAt.get(r.epoch ?? 0);
      return moved(b ? scoreOf(b.scores, scoreKey) : null, scoreOf(r.scores, scoreKey));
    });
    const shown = differing[0] ?? runs[0]!;
    const nb = numeric(before);
    const na = numeric(after);
    out.push({
      caseId,
      category: shown.category,
      baseline: before,
      value: after,
      delta: nb !== null && na !== null ? round4(na - nb) : null,
      epochs: runs.length,
      movedEpochs: differing.length,
      epoch: shown.epoch ?? 0,
      baselineRunId: (baseAt.get(shown.epoch ?? 0) ?? baseRuns[0]!).runId,
      runId: shown.runId,
    });
  }
  return out;
}

/** One row per (setting, case) of stored rows over epochs. */
export interface CaseOverEpochs<R extends EpochCaseRow & { setting: string }> {
  setting: string;
  caseId: string;
  category: string | null;
  /** The first epoch's run (the one a list links when it names no epoch). */
  runId: string | null;
  /** Every score over the case's epochs (scoreOverEpochs of each key). */
  scores: Record<string, JsonValue>;
  epochs: number;
  rows: R[];
}

/**
 * Each (setting, case) of rows stored one per epoch, its scores taken over its epochs (scoreOverEpochs
 * per key): what a view that lists cases reads, so a case is judged on all its runs. In first-seen order.
 */
export function casesOverEpochs<R extends EpochCaseRow & { setting: string }>(rows: readonly R[]): CaseOverEpochs<R>[] {
  const groups = new Map<string, R[]>();
  for (const r of rows) {
    const k = JSON.stringify([r.setting, r.caseId]);
    const g = groups.get(k) ?? [];
    g.push(r);
    groups.set(k, g);
  }
  return [...groups.values()].map((g) => {
    g.sort((a, b) => (a.epoch ?? 0) - (b.epoch ?? 0));
    const keys = [...new Set(g.flatMap((r) => (r.scores !== null && typeof r.scores === 'object' && !Array.isArray(r.scores) ? Object.keys(r.scores) : [])))];
    const first = g[0]!;
    return {
      setting: first.setting,
      caseId: first.caseId,
      category: first.category,
      runId: first.runId,
      scores: Object.fromEntries(keys.map((k) => [k, scoreOverEpochs(g.map((r) => scoreOf(r.scores, k)))])),
      epochs: g.length,
      rows: g,
    };
  });
}

/**
 * Instructor mode's suggestions: for each weakness flag, golden cases that the flag moves, read from
 * a stored matrix (each case's scores under `none` against the same case under the flag), never
 * from a list kept in code. A case "moves" when a metric's per-case score differs (token counts past
 * the noise threshold, as on the matrix page).
 */
import { caseMoved, caseScoreKey, metricLabel } from './matrix-view';

/** The metrics whose per-case scores can show a flag's effect, in the order they are named. */
export const SUGGESTION_METRICS = [
  'tool_selection_accuracy',
  'argument_correctness',
  'answer_correctness',
  'termination_match_rate',
  'must_not_call_ok_rate',
  'loop_rate',
  'invalid_call_rate',
  'blocked_call_rate',
  'mean_input_tokens',
] as const;

export interface MatrixCase {
  setting: string;
  caseId: string;
  category: string | null;
  runId: string | null;
  scores: unknown;
}

export interface FlagSuggestion {
  caseId: string;
  category: string | null;
  /** Labels of the metrics whose case score moved, e.g. "Tool selection". */
  moved: string[];
  baselineRunId: string | null;
  runId: string | null;
}

const scoreOf = (scores: unknown, key: string): unknown =>
  scores !== null && typeof scores === 'object' && !Array.isArray(scores) ? ((scores as Record<string, unknown>)[key] ?? null) : null;

const isTokens = (metric: string) => metric.startsWith('mean_') && metric.endsWith('tokens');

/** The metrics whose case score moved between `before` and `after`. */
export function movedMetrics(before: unknown, after: unknown): string[] {
  return SUGGESTION_METRICS.filter((m) => {
    const key = caseScoreKey(m);
    return key !== null && caseMoved(key, scoreOf(before, key), scoreOf(after, key));
  });
}

/**
 * For each flag, up to `limit` cases the flag moves in this matrix: cases where a score other than
 * tokens moved come first (more moved scores first), then token-only moves, then by case id.
 */
export function casesEachFlagMoves(cases: readonly MatrixCase[], flags: readonly string[], limit = 3, baseline = 'none'): Record<string, FlagSuggestion[]> {
  const base = new Map(cases.filter((c) => c.setting === baseline).map((c) => [c.caseId, c]));
  const out: Record<string, FlagSuggestion[]> = {};
  for (const flag of flags) {
    const moved = cases
      .filter((c) => c.setting === flag && base.has(c.caseId))
      .map((c) => {
        const b = base.get(c.caseId)!;
        const metrics = movedMetrics(b.scores, c.scores);
        return { c, b, metrics, weight: metrics.filter((m) => !isTokens(m)).length };
      })
      .filter((x) => x.metrics.length > 0)
      .sort((x, y) => y.weight - x.weight || y.metrics.length - x.metrics.length || x.c.caseId.localeCompare(y.c.caseId));
    out[flag] = moved.slice(0, limit).map(({ c, b, metrics }) => ({
      caseId: c.caseId,
      category: c.category,
      moved: metrics.map(metricLabel),
      baselineRunId: b.runId,
      runId: c.runId,
    }));
  }
  return out;
}

/** For each case, the flags under which it moved at all (so the page can say the chosen case moves nothing). */
export function flagsMovingEachCase(cases: readonly MatrixCase[], flags: readonly string[], baseline = 'none'): Record<string, string[]> {
  const base = new Map(cases.filter((c) => c.setting === baseline).map((c) => [c.caseId, c]));
  const out: Record<string, string[]> = {};
  for (const b of base.values()) out[b.caseId] = [];
  for (const c of cases) {
    const b = base.get(c.caseId);
    if (!b || !flags.includes(c.setting)) continue;
    if (movedMetrics(b.scores, c.scores).length > 0) out[c.caseId]!.push(c.setting);
  }
  for (const k of Object.keys(out)) out[k]!.sort((x, y) => flags.indexOf(x) - flags.indexOf(y));
  return out;
}

/**
 * Trajectory metrics (SPEC.md §12.2–§12.4): aligning expected calls with the executed ones,
 * argument matching with the reference's Python semantics, and the per-case tool_selection,
 * argument_correctness and trajectory_match scores.
 */
import { isJsonObject, type JsonValue } from '../harness';
import { contentTokens, pyStr } from '../harness';
import type { ExpectedCall, TrajectoryMatchMode } from './golden';
import { pyFloat } from './numbers';

/** The part of a tool record the trajectory metrics look at. */
export interface CallLike {
  name: string;
  arguments: JsonValue;
}

export interface CallMatch<T extends CallLike> {
  /** Whether the names satisfy the mode. */
  namesOk: boolean;
  /** One entry per expected call: the record it aligned with, or null. */
  aligned: (T | null)[];
}

/**
 * Whether the actual arguments satisfy the expected ones: every expected key present; `query`
 * compared as a content-token subset; numbers compared through Python `float()` (so `"50"` matches
 * 50 and `""` matches nothing); everything else as case-insensitive Python `str()`.
 */
export function argsMatch(expected: Readonly<Record<string, JsonValue>>, actual: JsonValue): boolean {
  if (!isJsonObject(actual)) return false;
  for (const [key, want] of Object.entries(expected)) {
    if (!Object.prototype.hasOwnProperty.call(actual, key)) return false;
    const got = actual[key] as JsonValue;
    if (key === 'query') {
      const have = new Set(contentTokens(pyStr(got)));
      if (!contentTokens(pyStr(want)).every((t) => have.has(t))) return false;
    } else if (typeof want === 'number') {
      const value = pyFloat(got);
      if (value === null || value !== want) return false;
    } else if (pyStr(got).toLowerCase() !== pyStr(want).toLowerCase()) {
      return false;
    }
  }
  return true;
}

function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const y of b) {
    const n = counts.get(y);
    if (!n) return false;
    counts.set(y, n - 1);
  }
  return true;
}

/** Aligns expected calls with actual records under a trajectory match mode (SPEC.md §12.2). */
export function matchCalls<T extends CallLike>(
  expected: readonly ExpectedCall[],
  actual: readonly T[],
  mode: TrajectoryMatchMode,
): CallMatch<T> {
  const expectedNames = expected.map((e) => e.name);
  const actualNames = actual.map((a) => a.name);
  switch (mode) {
    case 'exact': {
      const namesOk = expectedNames.length === actualNames.length && expectedNames.every((n, i) => n === actualNames[i]);
      return { namesOk, aligned: namesOk ? [...actual] : expected.map(() => null) };
    }
    case 'in_order_subset': {
      let cursor = 0;
      const aligned = expected.map((want): T | null => {
        while (cursor < actual.length) {
          const record = actual[cursor++] as T;
          if (record.name === want.name) return record;
        }
        return null;
      });
      return { namesOk: aligned.every((a) => a !== null), aligned };
    }
    case 'any_order': {
      const pool = [...actual];
      const aligned = expected.map((want): T | null => {
        const sameName = pool.filter((r) => r.name === want.name);
        const pick = sameName.find((r) => argsMatch(want.args, r.arguments)) ?? sameName[0];
        if (pick === undefined) return null;
        pool.splice(pool.indexOf(pick), 1);
        return pick;
      });
      return { namesOk: sameMultiset(expectedNames, actualNames), aligned };
    }
  }
}

/** 0 when a forbidden tool ran; otherwise 1 when the executed names satisfy the mode. */
export function toolSelection(
  expected: readonly ExpectedCall[],
  executed: readonly CallLike[],
  mode: TrajectoryMatchMode,
  mustNotCall: readonly string[],
): number {
  if (executed.some((r) => mustNotCall.includes(r.name))) return 0;
  return matchCalls(expected, executed, mode).namesOk ? 1 : 0;
}

/**
 * The share of expected calls whose aligned record has matching arguments; for a case that
 * expects no tools, 1 when nothing ran and 0 otherwise.
 */
export function argumentCorrectness(
  expected: readonly ExpectedCall[],
  executed: readonly CallLike[],
  mode: TrajectoryMatchMode,
): number {
  if (expected.length === 0) return executed.length === 0 ? 1 : 0;
  const { aligned } = matchCalls(expected, executed, mode);
  const matched = expected.filter((want, i) => {
    const record = aligned[i];
    return record != null && argsMatch(want.args, record.arguments);
  }).length;
  return matched / expected.length;
}

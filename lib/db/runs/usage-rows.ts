/**
 * What a run's rows keep of usage that was not reported (issue 40): the count of unreported calls,
 * the split by purpose and the budgets' local estimate (one JSON column, `Run.usageDetail`), and a
 * model turn's own estimate (`ModelTurn.usageEstimate`). Unknown stays null on the way back.
 */
import { z } from 'zod';
import { UsageSchema, UsageEstimateSchema, type RunResult, type Usage, type UsageEstimate } from '../../harness';
import { parseStoredJson } from '../core';
import { DbError } from '../core';

const UsageDetailSchema = UsageSchema.pick({ byPurpose: true, estimatedTokens: true });
type UsageDetail = z.infer<typeof UsageDetailSchema>;

/** The Run columns for a run's usage beyond its totals. */
export function usageDetailColumns(usage: Usage): { unreportedCalls: number; usageDetail: string | null } {
  const detail: UsageDetail = {
    ...(usage.byPurpose ? { byPurpose: usage.byPurpose } : {}),
    ...(usage.estimatedTokens ? { estimatedTokens: usage.estimatedTokens } : {}),
  };
  return { unreportedCalls: usage.unreportedCalls ?? 0, usageDetail: Object.keys(detail).length > 0 ? JSON.stringify(detail) : null };
}

/** The usage fields the Run row's detail columns restore (nothing for runs that had none). */
export function usageDetailOf(row: { unreportedCalls: number; usageDetail: string | null }): Pick<Usage, 'unreportedCalls' | 'byPurpose' | 'estimatedTokens'> {
  const parsed = row.usageDetail === null ? null : UsageDetailSchema.safeParse(parseStoredJson(row.usageDetail, 'usage detail'));
  if (parsed && !parsed.success) throw new DbError('corrupt_row', `stored usage detail is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return { ...(row.unreportedCalls > 0 ? { unreportedCalls: row.unreportedCalls } : {}), ...(parsed?.data ?? {}) };
}

/** The cost estimate's mark of unreported calls, as stored. */
export function costUnreportedOf(row: { unreportedCalls: number }): Pick<RunResult['costEstimate'], 'unreportedCalls'> {
  return row.unreportedCalls > 0 ? { unreportedCalls: row.unreportedCalls } : {};
}

/** A model turn's stored estimate, or nothing. */
export function usageEstimateOf(text: string | null): { usageEstimate?: UsageEstimate } {
  if (text === null) return {};
  const parsed = UsageEstimateSchema.safeParse(parseStoredJson(text, 'usage estimate'));
  if (!parsed.success) throw new DbError('corrupt_row', `stored usage estimate is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return { usageEstimate: parsed.data };
}

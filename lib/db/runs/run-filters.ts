/**
 * The filters of the runs table (list, count, group, text search and export share them), and their
 * validation: a bad filter is an InvalidInputError naming it.
 */
import { z } from 'zod';
import { TagFilterSchema } from '../../eval';
import { InvalidInputError } from '../core';
import { MAX_SEARCH_TEXT, MIN_SEARCH_TEXT, normaliseSearchText } from './run-search';

export const RunFiltersSchema = z.object({
  /** The tenant whose runs to list (pages always set it to the caller's tenant). */
  tenant: z.string().optional(),
  datasetName: z.string().optional(),
  /** Exact setting: `none` or sorted flags joined with `+`. */
  setting: z.string().optional(),
  /** Runs that have every one of these weakness flags (and maybe others). */
  flags: z.array(z.string()).optional(),
  category: z.string().optional(),
  terminationReason: z.string().optional(),
  caseId: z.string().optional(),
  suiteRunId: z.string().optional(),
  transport: z.string().optional(),
  status: z.string().optional(),
  /** `harness` or `imported`. */
  source: z.string().optional(),
  /** Exact model id. */
  modelId: z.string().max(256).optional(),
  /** Runs configured with this run guard. */
  guard: z.string().max(64).optional(),
  /** An imported trace's `session.id`. */
  sessionId: z.string().max(256).optional(),
  /** An imported trace's `user.id`. */
  traceUserId: z.string().max(256).optional(),
  /** `yes`: runs with at least one reviewer label; `no`: runs without. */
  labelled: z.enum(['yes', 'no']).optional(),
  /** Runs with a label (of the run or a step) whose verdict or category is this value. */
  label: z.string().max(40).optional(),
  /** Runs with an agent of this name (`stockroom`: the harness's own runs). */
  agent: z.string().max(256).optional(),
  /** Runs carrying this tag (in its stored form: lib/eval/run-tags.ts; a blank one filters nothing). */
  tag: TagFilterSchema,
  /** Runs with at least this many agents (2: the multi-agent runs). */
  minAgents: z.number().int().min(1, 'at least 1').optional(),
  /** Runs in which at least one tool call returned an error. */
  toolError: z.boolean().optional(),
  /** Runs that read a tool result with prompt-injection signals (tainted from that step). */
  tainted: z.boolean().optional(),
  /** Runs that took longer than this (ms). */
  minDurationMs: z.number().min(0, 'at least 0').optional(),
  /** Runs scored by the online evaluator of this name (issue 37); with minScore/maxScore, in that range. */
  evaluator: z.string().max(60).optional(),
  /** With `evaluator`: its score at least this (0..1). */
  minScore: z.number().min(0, 'from 0 to 1').max(1, 'from 0 to 1').optional(),
  /** With `evaluator`: its score at most this (0..1). */
  maxScore: z.number().min(0, 'from 0 to 1').max(1, 'from 0 to 1').optional(),
  /** Runs started at or after this time (a dashboard point's hour or day). */
  startedFrom: z.date().optional(),
  /** Runs started before this time. */
  startedBefore: z.date().optional(),
  /** Runs with a known cost above this (USD); a run without a price is not "above". */
  minCostUsd: z.number().min(0, 'at least 0').optional(),
  /**
   * Case-insensitive substring of the question, the final answer, or any tool call's arguments or
   * result (the run's search index, lib/db/run-text-search.ts).
   */
  text: z
    .string()
    .max(MAX_SEARCH_TEXT, `at most ${MAX_SEARCH_TEXT} characters`)
    .refine((t) => {
      const n = [...normaliseSearchText(t)].length;
      return n === 0 || n >= MIN_SEARCH_TEXT;
    }, `search text needs at least ${MIN_SEARCH_TEXT} characters`)
    .optional(),
});
export type RunFilters = z.input<typeof RunFiltersSchema>;

/** Validated filters; a bad one is an InvalidInputError naming the filter. */
export function parseRunFilters(filters: RunFilters): RunFilters {
  const parsed = RunFiltersSchema.safeParse(filters);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(issue?.path.join('.') || 'filters', issue?.message ?? 'invalid filter');
  }
  return parsed.data;
}

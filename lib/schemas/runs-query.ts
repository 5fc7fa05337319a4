/**
 * The runs page's URL: filters, sort and cursor, parsed leniently (an unknown value is dropped
 * rather than failing the page) and written back for links.
 */
import { z } from 'zod';
import { TERMINATION_REASONS } from '../harness';
import { WEAKNESS_FLAGS, TRANSPORTS, RUN_GUARD_NAMES } from '../harness';
import type { RunFilters } from '../db/runs';

export const RUN_SORT_KEYS = ['startedAt', 'durationMs', 'totalTokens', 'costUsd', 'steps', 'score'] as const;
export const PAGE_SIZES = [25, 50, 100] as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .catch(undefined)
    .transform((v) => (v === '' ? undefined : v));

const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);
/** A number field of the form: an empty box is no filter. */
const oneNumber = (v: unknown) => {
  const x = one(v);
  return x === '' || x === undefined ? undefined : x;
};

export const RunsQuerySchema = z.object({
  dataset: z.preprocess(one, optionalText(128)),
  /** Exact setting (`none` or flags joined by `+`). */
  setting: z.preprocess(one, optionalText(256)),
  flag: z.preprocess(one, z.enum(WEAKNESS_FLAGS).optional().catch(undefined)),
  category: z.preprocess(one, optionalText(128)),
  termination: z.preprocess(one, z.enum(TERMINATION_REASONS).optional().catch(undefined)),
  caseId: z.preprocess(one, optionalText(64)),
  suite: z.preprocess(one, optionalText(64)),
  q: z.preprocess(one, optionalText(200)),
  /** `paused`: only runs waiting for approval. */
  status: z.preprocess(one, z.enum(['paused']).optional().catch(undefined)),
  transport: z.preprocess(one, z.enum(TRANSPORTS).optional().catch(undefined)),
  /** Exact model id. */
  model: z.preprocess(one, optionalText(256)),
  /** Runs configured with this run guard. */
  guard: z.preprocess(one, z.enum(RUN_GUARD_NAMES).optional().catch(undefined)),
  /** `yes` or `no`: runs with or without a reviewer's label. */
  labelled: z.preprocess(one, z.enum(['yes', 'no']).optional().catch(undefined)),
  /** A label value (verdict or category). */
  label: z.preprocess(one, optionalText(40)),
  /** `1`: runs in which a tool call errored. */
  toolError: z.preprocess(one, z.enum(['1']).optional().catch(undefined)),
  /** `1`: runs that read a tool result with prompt-injection signals (tainted). */
  tainted: z.preprocess(one, z.enum(['1']).optional().catch(undefined)),
  /** Runs slower than this many seconds. */
  slowerThan: z.preprocess(oneNumber, z.coerce.number().min(0).max(86_400).optional().catch(undefined)),
  /** Runs costing more than this many US dollars. */
  costAbove: z.preprocess(oneNumber, z.coerce.number().min(0).max(10_000).optional().catch(undefined)),
  /** `suite`: one row per suite (single runs stay rows). */
  group: z.preprocess(one, z.enum(['suite']).optional().catch(undefined)),
  /** An imported trace's `session.id`: that session's runs. */
  session: z.preprocess(one, optionalText(256)),
  /** An imported trace's `user.id` (the traced application's end user). */
  user: z.preprocess(one, optionalText(256)),
  /** Runs with an agent of this exact name (`stockroom`: the harness's own runs). */
  agent: z.preprocess(one, optionalText(256)),
  /** Runs carrying this tag (issue 37). */
  tag: z.preprocess(one, optionalText(256)),
  /** `1`: only runs of several agents. */
  multiAgent: z.preprocess(one, z.enum(['1']).optional().catch(undefined)),
  /** `imported` or `harness`: where the runs came from. */
  source: z.preprocess(one, z.enum(['harness', 'imported']).optional().catch(undefined)),
  /** An online evaluator's name: the runs it scored (issue 37); with scoreMin/scoreMax, in that range; sort=score orders by it. */
  evaluator: z.preprocess(one, optionalText(60)),
  scoreMin: z.preprocess(oneNumber, z.coerce.number().min(0).max(1).optional().catch(undefined)),
  scoreMax: z.preprocess(oneNumber, z.coerce.number().min(0).max(1).optional().catch(undefined)),
  /** Runs started in [from, before): a dashboard point's hour or day (ISO times). */
  from: z.preprocess(one, z.iso.datetime().optional().catch(undefined)),
  before: z.preprocess(one, z.iso.datetime().optional().catch(undefined)),
  sort: z.preprocess(one, z.enum(RUN_SORT_KEYS).catch('startedAt').default('startedAt')),
  dir: z.preprocess(one, z.enum(['asc', 'desc']).catch('desc').default('desc')),
  cursor: z.preprocess(one, optionalText(512)),
  size: z.preprocess((v) => Number(one(v) ?? 50), z.union(PAGE_SIZES.map((n) => z.literal(n))).catch(50)),
});
export type RunsQuery = z.output<typeof RunsQuerySchema>;

const FILTER_KEYS = ['dataset', 'setting', 'flag', 'category', 'termination', 'caseId', 'suite', 'q', 'source', 'status', 'transport', 'model', 'guard', 'session', 'user', 'labelled', 'label', 'toolError', 'tainted', 'slowerThan', 'costAbove', 'agent', 'tag', 'multiAgent', 'evaluator', 'scoreMin', 'scoreMax', 'from', 'before'] as const;

/** The query string for a runs page (defaults left out); `overrides` replace values, undefined removes. */
export function runsHref(query: RunsQuery, overrides: Partial<Record<keyof RunsQuery, string | number | undefined>> = {}): string {
  const merged: Record<string, string | number | undefined> = { ...query, ...overrides };
  const params = new URLSearchParams();
  for (const key of [...FILTER_KEYS, 'group', 'sort', 'dir', 'size', 'cursor'] as const) {
    const v = merged[key];
    if (v === undefined || v === '') continue;
    if (key === 'sort' && v === 'startedAt') continue;
    if (key === 'dir' && v === 'desc') continue;
    if (key === 'size' && Number(v) === 50) continue;
    params.set(key, String(v));
  }
  const s = params.toString();
  return s ? `/runs?${s}` : '/runs';
}

/** The data layer's filters for a runs page query in the caller's tenant (the table and its CSV download). */
export function runFiltersOf(q: RunsQuery, tenant: string): RunFilters {
  return {
    tenant,
    datasetName: q.dataset,
    setting: q.setting,
    flags: q.flag ? [q.flag] : undefined,
    category: q.category,
    terminationReason: q.termination,
    caseId: q.caseId,
    suiteRunId: q.suite,
    text: q.q,
    source: q.source,
    status: q.status,
    transport: q.transport,
    modelId: q.model,
    guard: q.guard,
    sessionId: q.session,
    traceUserId: q.user,
    labelled: q.labelled,
    label: q.label,
    toolError: q.toolError === '1' ? true : undefined,
    tainted: q.tainted === '1' ? true : undefined,
    minDurationMs: q.slowerThan !== undefined ? q.slowerThan * 1000 : undefined,
    minCostUsd: q.costAbove,
    agent: q.agent,
    tag: q.tag,
    minAgents: q.multiAgent === '1' ? 2 : undefined,
    evaluator: q.evaluator,
    minScore: q.scoreMin,
    maxScore: q.scoreMax,
    startedFrom: q.from ? new Date(q.from) : undefined,
    startedBefore: q.before ? new Date(q.before) : undefined,
  };
}

/**
 * Whether the table is grouped by suite: asked for, in date order, and neither a text search (whose
 * rows say where each run matched) nor one suite's runs. `null` when grouped, else why not.
 */
export function groupingBlockedBy(query: RunsQuery): string | null {
  if (!query.group) return 'not asked for';
  if (query.sort !== 'startedAt') return 'grouping follows the date order';
  if (query.evaluator) return 'runs are listed with their scores';
  if (query.q) return 'search results are listed run by run';
  if (query.suite) return 'this is one suite';
  return null;
}

/** The CSV download of the runs table under the same filters and sort. */
export function runsCsvHref(query: RunsQuery): string {
  return runsHref(query, { cursor: undefined, size: undefined }).replace(/^\/runs/, '/api/runs/export');
}

/** How many filters are set (the phone's collapsed filter control says so). */
export function activeFilters(query: RunsQuery): number {
  return FILTER_KEYS.filter((k) => query[k] !== undefined).length;
}

/** Whether any filter is set (the empty state says "no runs match" rather than "no runs yet"). */
export function hasFilters(query: RunsQuery): boolean {
  return FILTER_KEYS.some((k) => query[k] !== undefined);
}

/** The column sort of a query for lists that cannot order by a score (the CSV, the label queue): by date then. */
export function columnSortOf(query: RunsQuery): { key: Exclude<RunsQuery['sort'], 'score'>; dir: 'asc' | 'desc' } {
  return { key: query.sort === 'score' ? 'startedAt' : query.sort, dir: query.dir };
}

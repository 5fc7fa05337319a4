/**
 * `--judge PROVIDER:MODEL [--judge-base-url URL]` for eval, matrix and `judge calibrate`: who grades
 * answer correctness and faithfulness (rubric v2). `fake` (the default) is the deterministic judge;
 * a provider judge goes through lib/models like a live agent model. Environment: STOCKROOM_JUDGE,
 * STOCKROOM_JUDGE_BASE_URL; flags override them. Refused before anything runs when malformed or
 * when the provider's credentials are missing (naming the variable).
 */
import type { Judge } from '../lib/eval/judge';
import type { EvalReport } from '../lib/eval/report';
import type { SaveTarget } from './save';
import type { JudgeCallStore } from '../lib/models/model-judge';
import type { JudgeSpec } from '../lib/models/create-judge';
import { stringFlag, type FlagSpec, type ParsedArgs } from './args';

export const JUDGE_FLAGS: FlagSpec = {
  judge: { type: 'string', description: 'who grades answers: fake (default), openai:MODEL, anthropic:MODEL, bedrock:ID or openai-compatible:MODEL (or STOCKROOM_JUDGE)' },
  'judge-base-url': { type: 'string', description: 'endpoint for an openai-compatible judge (required) or to override a provider (or STOCKROOM_JUDGE_BASE_URL)' },
};

const envValue = (name: string) => {
  const v = process.env[name]?.trim();
  return v ? v : undefined;
};

/** The judge the flags (or environment) name, checked, credentials included. */
export async function judgeSpecFromArgs(args: ParsedArgs): Promise<JudgeSpec> {
  const fromFlag = stringFlag(args, 'judge');
  const spec = { judge: fromFlag ?? envValue('STOCKROOM_JUDGE') ?? 'fake', baseUrl: stringFlag(args, 'judge-base-url') ?? envValue('STOCKROOM_JUDGE_BASE_URL') ?? null };
  const { checkJudge } = await import('../lib/models/create-judge');
  checkJudge(spec, process.env, fromFlag !== undefined || envValue('STOCKROOM_JUDGE') === undefined ? '--judge' : 'STOCKROOM_JUDGE');
  return spec;
}

/** Builds the judge of a checked spec; a live one records and caches its calls in `store`. */
export async function judgeFromSpec(spec: JudgeSpec, store?: JudgeCallStore): Promise<Judge> {
  const { createJudge } = await import('../lib/models/create-judge');
  return createJudge(spec, { store });
}

/**
 * The judge for eval and matrix: with --save its calls are recorded in (and answered from) the
 * target tenant's database; otherwise in memory for this process.
 */
export async function judgeForTarget(spec: JudgeSpec, target: SaveTarget | null): Promise<Judge> {
  if (!target) return judgeFromSpec(spec);
  const { PrismaJudgeCallStore } = await import('../lib/db/review/judge');
  return judgeFromSpec(spec, new PrismaJudgeCallStore(target.owner.tenant, target.db));
}

/** What a live judge's calls cost across some reports, apart from the agent's: null when nothing was billed to it. */
export interface JudgeSpendSummary {
  calls: number;
  failedCalls: number;
  /** Null when the judge model has no price (unknown, never 0). */
  usd: number | null;
}

export function judgeSpendOf(reports: readonly Pick<EvalReport, 'metrics'>[]): JudgeSpendSummary | null {
  const billed = reports.filter((r) => r.metrics.judge_calls !== undefined);
  if (billed.length === 0) return null;
  return {
    calls: billed.reduce((n, r) => n + (r.metrics.judge_calls ?? 0), 0),
    failedCalls: billed.reduce((n, r) => n + (r.metrics.judge_failed_calls ?? 0), 0),
    usd: billed.every((r) => typeof r.metrics.judge_cost_usd === 'number') ? billed.reduce((n, r) => n + (r.metrics.judge_cost_usd ?? 0), 0) : null,
  };
}

/** A judge's spend as one line of text. */
export function formatJudgeSpend(s: JudgeSpendSummary): string {
  return `judge spend ${s.usd === null ? 'unknown (no price for the judge model)' : `$${s.usd.toFixed(6)}`} over ${s.calls} call(s)${s.failedCalls > 0 ? `, ${s.failedCalls} failed (their items unscored)` : ''}, apart from the agent's cost`;
}

/** Who judged, how many items across the reports it left unscored, and what its calls cost (apart from the agent's). */
export function judgeSummary(
  judge: Judge,
  reports: readonly EvalReport[],
): { name: string; rubricVersion: string; unscored: number; spend: JudgeSpendSummary | null } {
  return { name: judge.name, rubricVersion: judge.rubricVersion, unscored: reports.reduce((n, r) => n + (r.judge?.unscored ?? 0), 0), spend: judgeSpendOf(reports) };
}

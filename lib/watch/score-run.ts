/**
 * One finished run through a tenant's online evaluators (issue 37): each matching metric or detector
 * measures it; a judge grades it when the run is in its sample (a hash of the run id, sampling.ts) and
 * its spend today is under its daily cap. A judge that cannot answer gives a null score saying why, and
 * so does one this process cannot build (its provider's credentials missing here, a spec no longer
 * valid): that is the evaluator's configuration, not a fault of the drain, and failing the drain for it
 * would hold every tenant's runs in the outbox until someone fixed it.
 */
import { ConfigError } from '../harness';
import { FakeJudge, isScored, judgeItemOfRun, measureRun, sampledRun, type Judge, type MetricKind } from '../eval';
import type { EvaluatedRun } from '../db/runs';
import type { EvaluatorDto } from '../db/review';
import type { NewScore } from '../db/review';
import { evaluatorMatches, type FilteredRun } from './match';

/** What a judge evaluator needs from the job: a judge per spec, and its spend today. */
export interface JudgeAccess {
  judgeFor(spec: string): Promise<Judge>;
  /** Known USD the evaluator spent today so far (this batch included). */
  spentToday(evaluator: EvaluatorDto): Promise<number>;
  /** Told what a grade spent, so the next run of the batch sees it. */
  spent(evaluator: EvaluatorDto, usd: number): void;
  signal?: AbortSignal;
}

/** The evaluators whose filter takes `run`. */
export function evaluatorsFor(evaluators: readonly EvaluatorDto[], run: FilteredRun): EvaluatorDto[] {
  return evaluators.filter((e) => e.enabled && evaluatorMatches(e.filter, run));
}

/** The scores of `run` (with id `runId`) by `evaluators` (already matched). A judge outside its sample gives none. */
export async function scoreRun(runId: string, run: EvaluatedRun, evaluators: readonly EvaluatorDto[], judges: JudgeAccess): Promise<NewScore[]> {
  const out: NewScore[] = [];
  for (const e of evaluators) {
    const base = { evaluatorId: e.id, evaluatorName: e.name, evaluatorVersion: e.version, kind: e.kind };
    if (e.kind !== 'judge') {
      const m = measureRun(e.kind as MetricKind, run, { max: e.config.max, detectors: e.config.detectors });
      out.push({ ...base, ...m, spendUsd: null });
      continue;
    }
    if (!sampledRun(runId, e.id, e.config.sampleRate ?? 1)) continue;
    const cap = e.config.dailyCapUsd;
    if (cap !== undefined && (await judges.spentToday(e)) >= cap) {
      out.push({ ...base, score: null, value: null, detail: `not graded: the daily cap of $${cap} was reached`, spendUsd: null });
      continue;
    }
    let judge: Judge;
    try {
      judge = await judges.judgeFor(e.config.judge ?? 'fake');
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      out.push({ ...base, score: null, value: null, detail: `not graded: the judge cannot be used by this worker (${err.message})`.slice(0, 500), spendUsd: null });
      continue;
    }
    const outcome = await judge.grade(judgeItemOfRun(run), { signal: judges.signal });
    const usd = outcome.spend ? outcome.spend.usd : judge instanceof FakeJudge ? 0 : null;
    if (usd) judges.spent(e, usd);
    if (isScored(outcome)) out.push({ ...base, score: outcome.score, value: outcome.passed ? 1 : 0, detail: `${judge.name}: ${outcome.rationale}`.slice(0, 500), spendUsd: usd });
    else out.push({ ...base, score: null, value: null, detail: `${judge.name} gave no verdict (${outcome.unscored})`, spendUsd: usd });
  }
  return out;
}

/**
 * Per-case scores (SPEC.md §12.8): everything the aggregate and the report need from one golden
 * case and its run. Nothing here looks at case ids or query text; only the case's declared
 * expectations and the run's records decide a score.
 */
import { z } from 'zod';
import { guardrailSummary } from '../harness';
import type { FloatKeys } from '../harness';
import { isCompactionEvent, isModelTurn, isToolRecord, type RunResult, type ToolRecord } from '../harness';
import { contextFromRun } from './faithfulness';
import type { GoldenCase } from './golden';
import { FakeJudge, isScored, type Judge, type JudgeOutcome } from './judge';
import { contextGrowthRatio, detectLoops, LOOP_WINDOW } from './loops';
import { argumentCorrectness, toolSelection } from './match-calls';
import { checkOutput } from './output-evaluator';

export const CaseScoresSchema = z.object({
  caseId: z.string(),
  category: z.string(),
  toolSelection: z.number(),
  argumentCorrectness: z.number(),
  trajectoryMatch: z.boolean(),
  terminationMatch: z.boolean(),
  mustNotCallOk: z.boolean(),
  mustNotCallViolations: z.array(z.string()),
  stepCountOk: z.boolean(),
  steps: z.number().int(),
  modelCalls: z.number().int(),
  answerCorrectnessDeterministic: z.boolean(),
  factsMissing: z.array(z.string()),
  forbiddenFound: z.array(z.string()),
  /** Judge score, or null when no judge graded the case. */
  answerCorrectnessJudge: z.number().nullable(),
  judgePassed: z.boolean().nullable(),
  judgeRationale: z.string().nullable(),
  /** Why the judge gave no verdict (`malformed_output`, `model_error`); absent when it gave one or did not judge. */
  judgeUnscored: z.string().nullable().optional(),
  /** Null when the run executed no tool call (nothing to be faithful to). */
  faithfulnessJudge: z.number().nullable(),
  /** Why the judge gave no faithfulness verdict (a failed call, malformed output); absent otherwise. */
  faithfulnessUnscored: z.string().optional(),
  /**
   * What grading this case cost a live judge (its provider calls, failed ones included), kept apart
   * from the agent's `costUsd`; `usd` null when the judge model has no price. Absent: nothing billed.
   */
  judgeSpend: z
    .object({
      calls: z.number().int(),
      failedCalls: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      usd: z.number().nullable(),
      /** Judge calls whose usage was not reported (their tokens unknown; `usd` then null). */
      unreportedCalls: z.number().int().optional(),
    })
    .optional(),
  loopFindings: z.number().int(),
  repeatedIdentical: z.number().int(),
  invalidCalls: z.number().int(),
  blockedCalls: z.number().int(),
  compactions: z.number().int(),
  contextGrowthRatio: z.number(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable(),
  /** The run's model calls that reported no usage (absent: none): its tokens and costUsd are lower bounds. */
  unreportedCalls: z.number().int().optional(),
  terminationReason: z.string(),
  toolNames: z.array(z.string()),
  finalAnswer: z.string(),
  runId: z.string(),
  /** What the run's guardrails did (lib/harness/guardrails/summary.ts); absent: the run had none. */
  guardrails: z
    .object({ on: z.array(z.string()), violated: z.array(z.string()), retries: z.number().int(), warned: z.boolean(), failed: z.boolean() })
    .optional(),
});
export type CaseScores = z.infer<typeof CaseScoresSchema>;

export interface EvaluateCaseOptions {
  /** Defaults to a FakeJudge with rubric v2 (the table's protocol); null skips judging. */
  judge?: Judge | null;
  /** Loop window of the metrics (3). */
  window?: number;
  /** Float-valued keys of the dataset, so the judge's context prints `28.0` as Python would. */
  floatKeys?: FloatKeys;
  /** Cancels a live judge's calls. */
  signal?: AbortSignal;
}

const defaultJudge = new FakeJudge('v2');

const unscoredRationale = (o: JudgeOutcome | null | undefined) => (o && !isScored(o) ? `unscored (${o.unscored}): ${o.detail}` : null);

const unreportedOf = (n: number): { unreportedCalls?: number } => (n > 0 ? { unreportedCalls: n } : {});

/** The judge's spend on a case's items, summed; nothing when it made no provider call. */
function spendOf(outcomes: readonly (JudgeOutcome | null)[]): { judgeSpend?: NonNullable<CaseScores['judgeSpend']> } {
  const spends = outcomes.flatMap((o) => (o?.spend ? [o.spend] : []));
  if (spends.length === 0) return {};
  return {
    judgeSpend: {
      calls: spends.reduce((n, s) => n + s.calls, 0),
      failedCalls: spends.reduce((n, s) => n + s.failedCalls, 0),
      inputTokens: spends.reduce((n, s) => n + s.inputTokens, 0),
      outputTokens: spends.reduce((n, s) => n + s.outputTokens, 0),
      usd: spends.every((s) => s.usd !== null) ? spends.reduce((n, s) => n + (s.usd ?? 0), 0) : null,
      ...unreportedOf(spends.reduce((n, s) => n + (s.unreportedCalls ?? 0), 0)),
    },
  };
}

/** What a judge said about a case: answer correctness, and faithfulness when the run executed a call. */
export interface CaseJudgement {
  answer: JudgeOutcome | null;
  faithfulness: JudgeOutcome | null;
}

/** Asks the judge about one run's answer (both rubrics); the items are the same for the fake and a live judge. */
export async function judgeCase(
  golden: GoldenCase,
  run: RunResult,
  judge: Judge,
  options: Pick<EvaluateCaseOptions, 'floatKeys' | 'signal'> = {},
): Promise<CaseJudgement> {
  const records = run.trajectory.filter(isToolRecord);
  const context = contextFromRun(records, options.floatKeys);
  const item = { query: golden.query, answer: run.finalAnswer, reference: golden.referenceAnswer, context };
  const grading = { signal: options.signal };
  const answer = await judge.grade(
    { ...item, expectedFacts: golden.expectedFacts, forbiddenFacts: golden.forbiddenFacts, rubric: 'answer_correctness' },
    grading,
  );
  const faithfulness = records.some((r) => r.executed)
    ? await judge.grade({ ...item, expectedFacts: [], forbiddenFacts: [], rubric: 'faithfulness' }, grading)
    : null;
  return { answer, faithfulness };
}

/** Scores one run against its golden case, judging it first (async: a live judge asks a model). */
export async function evaluateCase(golden: GoldenCase, run: RunResult, options: EvaluateCaseOptions = {}): Promise<CaseScores> {
  const judge = options.judge === undefined ? defaultJudge : options.judge;
  const judgement = judge ? await judgeCase(golden, run, judge, options) : null;
  return scoreCase(golden, run, { ...options, judgement });
}

/**
 * The scores of one run from the records alone, with a judgement already made (or none): what a
 * caller that needs only the deterministic scores uses synchronously.
 */
export function scoreCase(
  golden: GoldenCase,
  run: RunResult,
  options: Pick<EvaluateCaseOptions, 'window'> & { judgement?: CaseJudgement | null } = {},
): CaseScores {
  const records: ToolRecord[] = run.trajectory.filter(isToolRecord);
  const executed = records.filter((r) => r.executed);
  const executedNames = executed.map((r) => r.name);
  const mode = golden.trajectoryMatchMode;

  const selection = toolSelection(golden.expectedTools, executed, mode, golden.mustNotCall);
  const argsScore = argumentCorrectness(golden.expectedTools, executed, mode);
  const output = checkOutput({
    finalAnswer: run.finalAnswer,
    expectedFacts: golden.expectedFacts,
    forbiddenFacts: golden.forbiddenFacts,
    mustNotCall: golden.mustNotCall,
    executedNames,
  });
  const outcome = options.judgement?.answer ?? null;
  const faithfulnessOutcome = options.judgement?.faithfulness ?? null;
  // An unscored item (malformed judge output, a failed judge call) counts as not judged.
  const verdict = outcome && isScored(outcome) ? outcome : null;
  const faithfulness = faithfulnessOutcome && isScored(faithfulnessOutcome) ? faithfulnessOutcome : null;

  const findings = detectLoops(records, options.window ?? LOOP_WINDOW);
  return {
    caseId: golden.id,
    category: golden.category,
    toolSelection: selection,
    argumentCorrectness: argsScore,
    trajectoryMatch: selection === 1 && argsScore === 1,
    terminationMatch: run.terminationReason === golden.expectedTermination,
    mustNotCallOk: output.mustNotCallViolations.length === 0,
    mustNotCallViolations: output.mustNotCallViolations,
    stepCountOk: golden.maxSteps === null || run.usage.modelCalls <= golden.maxSteps,
    steps: run.steps,
    modelCalls: run.usage.modelCalls,
    answerCorrectnessDeterministic: output.passed,
    factsMissing: output.factsMissing,
    forbiddenFound: output.forbiddenFound,
    answerCorrectnessJudge: verdict?.score ?? null,
    judgePassed: verdict?.passed ?? null,
    judgeRationale: verdict?.rationale ?? unscoredRationale(outcome),
    ...(outcome && !isScored(outcome) ? { judgeUnscored: outcome.unscored } : {}),
    faithfulnessJudge: faithfulness?.score ?? null,
    ...(faithfulnessOutcome && !isScored(faithfulnessOutcome) ? { faithfulnessUnscored: faithfulnessOutcome.unscored } : {}),
    ...spendOf([outcome, faithfulnessOutcome]),
    loopFindings: findings.filter((f) => f.kind === 'loop').length,
    repeatedIdentical: findings.filter((f) => f.kind === 'repeated_identical_call').length,
    invalidCalls: records.filter((r) => r.validationError !== null).length,
    blockedCalls: records.filter((r) => r.blockedBy !== null).length,
    compactions: run.trajectory.filter(isCompactionEvent).length,
    contextGrowthRatio: contextGrowthRatio(run.trajectory.filter(isModelTurn)),
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    // Null when the model has no price: the suite's cost_known then turns false.
    costUsd: run.costEstimate.known === false ? null : run.costEstimate.usd,
    // The agent's calls that reported no usage: costUsd and the tokens are then lower bounds.
    ...unreportedOf(run.usage.unreportedCalls ?? 0),
    terminationReason: run.terminationReason,
    toolNames: executedNames,
    finalAnswer: run.finalAnswer,
    runId: run.runId,
    ...guardrailScores(run),
  };
}

function guardrailScores(run: RunResult): Pick<CaseScores, 'guardrails'> {
  const g = guardrailSummary(run);
  return g ? { guardrails: g } : {};
}

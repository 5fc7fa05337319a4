/** The short summary of a run the UI shows right after making it (the rest is a replay away). */
import { isToolRecord, type RunResult } from '../harness';
import { scoreCase, type CaseScores } from '../eval';
import { callStatus } from '../eval';
import type { GoldenCase } from '../eval';

/** What the UI shows of a run it just made. */
export interface RunOneResult {
  runId: string;
  terminationReason: string;
  finalAnswer: string;
  steps: number;
  toolCalls: Array<{ name: string; status: string }>;
  /** The golden case's scores for this run, when a golden case was run. */
  scores: Pick<CaseScores, 'toolSelection' | 'argumentCorrectness' | 'answerCorrectnessDeterministic' | 'terminationMatch' | 'mustNotCallOk' | 'loopFindings' | 'inputTokens'> | null;
}

/** The short summary the UI shows of a run it just made (only the deterministic scores). */
export function summariseRun(runId: string, run: RunResult, golden: GoldenCase | null): RunOneResult {
  const scores = golden ? scoreCase(golden, run) : null;
  return {
    runId,
    terminationReason: run.terminationReason,
    finalAnswer: run.finalAnswer,
    steps: run.steps,
    toolCalls: run.trajectory.filter(isToolRecord).map((r) => ({ name: r.name, status: callStatus(r) })),
    scores: scores && {
      toolSelection: scores.toolSelection,
      argumentCorrectness: scores.argumentCorrectness,
      answerCorrectnessDeterministic: scores.answerCorrectnessDeterministic,
      terminationMatch: scores.terminationMatch,
      mustNotCallOk: scores.mustNotCallOk,
      // Instructor mode's cards show these two as well (they read "—" and "unchanged" while left out).
      loopFindings: scores.loopFindings,
      inputTokens: scores.inputTokens,
    },
  };
}

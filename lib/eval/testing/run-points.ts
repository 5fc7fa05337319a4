/** Run points for the interval and paired-delta tests: a passing run's scores with the fields a test sets. */
import type { CaseScores } from '../case-scores';
import type { RunPoint } from '../interval-metrics';

export function passingScores(overrides: Partial<CaseScores> = {}): CaseScores {
  return {
    caseId: 'c', category: 'cat', toolSelection: 1, argumentCorrectness: 1, trajectoryMatch: true, terminationMatch: true,
    mustNotCallOk: true, mustNotCallViolations: [], stepCountOk: true, steps: 2, modelCalls: 2, answerCorrectnessDeterministic: true,
    factsMissing: [], forbiddenFound: [], answerCorrectnessJudge: null, judgePassed: null, judgeRationale: null, faithfulnessJudge: null,
    loopFindings: 0, repeatedIdentical: 0, invalidCalls: 0, blockedCalls: 0, compactions: 0, contextGrowthRatio: 1, inputTokens: 1000,
    outputTokens: 50, costUsd: null, terminationReason: 'COMPLETED', toolNames: [], finalAnswer: 'ok', runId: 'r',
    ...overrides,
  };
}

export function point(caseId: string, overrides: Partial<CaseScores> = {}, category = 'cat'): RunPoint {
  return { caseId, category, scores: passingScores({ caseId, category, ...overrides }), modelLatencyMs: 40 };
}

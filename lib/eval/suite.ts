/**
 * Runs golden cases through an agent, in file order, and scores each run (SPEC.md §1 step 4).
 */
import type { FloatKeys } from '../harness';
import type { RunResult } from '../harness';
import { aggregate, type Aggregate } from './aggregate';
import { evaluateCase, type CaseScores } from './case-scores';
import type { GoldenCase } from './golden';
import { FakeJudge, type Judge } from './judge';

/** What the suite needs from an agent: one fresh run per case (the Stockroom agent resets itself). */
export interface SuiteAgent {
  run(query: string, caseId?: string | null, options?: { signal?: AbortSignal }): Promise<RunResult>;
  readonly dataset?: { readonly floatKeys?: FloatKeys };
}

export interface SuiteCaseResult {
  golden: GoldenCase;
  run: RunResult;
  scores: CaseScores;
}

export interface SuiteResult {
  results: SuiteCaseResult[];
  aggregate: Aggregate;
  /** The judge that graded the answers (null: not judged). */
  judge: { name: string; rubricVersion: string } | null;
}

export interface SuiteProgress {
  done: number;
  total: number;
  caseId: string;
}

export interface RunSuiteOptions {
  agent: SuiteAgent;
  cases: readonly GoldenCase[];
  /** Defaults to a FakeJudge with rubric v2, one per suite. */
  judge?: Judge | null;
  onProgress?: (progress: SuiteProgress) => void;
  /** Cancels the suite: the run in flight is aborted and no further case starts (throws an AbortError). */
  signal?: AbortSignal;
}

/** Runs every case in order (never in parallel: cases share the agent's executor) and scores it. */
export async function runSuite(options: RunSuiteOptions): Promise<SuiteResult> {
  const judge = options.judge === undefined ? new FakeJudge('v2') : options.judge;
  const floatKeys = options.agent.dataset?.floatKeys;
  const results: SuiteCaseResult[] = [];
  for (const golden of options.cases) {
    options.signal?.throwIfAborted();
    const run = await options.agent.run(golden.query, golden.id, options.signal ? { signal: options.signal } : undefined);
    options.signal?.throwIfAborted();
    results.push({ golden, run, scores: await evaluateCase(golden, run, { judge, floatKeys, signal: options.signal }) });
    options.onProgress?.({ done: results.length, total: options.cases.length, caseId: golden.id });
  }
  return { results, aggregate: aggregate(results.map((r) => r.scores)), judge: judge ? { name: judge.name, rubricVersion: judge.rubricVersion } : null };
}

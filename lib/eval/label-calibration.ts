/**
 * The judge calibrated on a tenant's own reviewers: each run labelled pass or fail as a whole becomes
 * a calibration item (its question, its answer, the context its tool calls returned, the facts of its
 * golden case when it ran one), graded like the course's calibration set (calibration.ts). Below
 * MIN_CALIBRATION_LABELS labelled runs agreement and kappa say too little, so a calibration is refused
 * with how many more labels it needs.
 */
import { canonicalDigest } from '../governance';
import type { CalibrationItem, CalibrationSet } from './calibration';

/** Fewest runs labelled pass or fail (as a whole) a calibration on labels needs. */
export const MIN_CALIBRATION_LABELS = 10;

/** A calibration on labels names its set `labels:<tenant>`; its item ids are run ids. */
export const LABELS_SET_PREFIX = 'labels:';

export const isLabelsSet = (setName: string) => setName.startsWith(LABELS_SET_PREFIX);

/** How many more labelled runs a calibration needs (0 when it can run). */
export function labelsStillNeeded(have: number, min: number = MIN_CALIBRATION_LABELS): number {
  return Math.max(0, min - have);
}

/** A 0..1 label score on the calibration set's 1..5 scale; without one, 5 for pass and 1 for fail. */
export function humanScoreOf(verdict: 'pass' | 'fail', score: number | null): number {
  if (score === null) return verdict === 'pass' ? 5 : 1;
  return Math.min(5, Math.max(1, Math.round(1 + 4 * score)));
}

/** A labelled run, ready to grade. */
export interface LabelledRun {
  runId: string;
  query: string;
  finalAnswer: string;
  /** What the run's tool calls returned, as the judge's faithfulness rubric reads it. */
  context: string;
  expectedFacts: string[];
  forbiddenFacts: string[];
  verdict: 'pass' | 'fail';
  score: number | null;
  comment: string;
}

/** The labelled runs as a calibration set (items in run-id order; the digest covers every item). */
export function calibrationSetFromLabels(tenant: string, runs: readonly LabelledRun[]): Pick<CalibrationSet, 'name' | 'sha256' | 'items'> {
  const items: CalibrationItem[] = [...runs]
    .sort((a, b) => a.runId.localeCompare(b.runId))
    .map((r) => ({
      id: r.runId,
      query: r.query,
      answer: r.finalAnswer,
      context: r.context,
      expected_facts: r.expectedFacts,
      forbidden_facts: r.forbiddenFacts,
      human_label: r.verdict,
      human_score: humanScoreOf(r.verdict, r.score),
      rationale: r.comment,
      probe_group: null,
      probe_role: null,
    }));
  return { name: `${LABELS_SET_PREFIX}${tenant}`, sha256: canonicalDigest(items), items };
}

/**
 * Collects a tenant's labelled runs for a judge calibration (lib/eval/label-calibration.ts): the
 * current whole-run label of each run labelled pass or fail, and from the stored run its answer, the
 * context its tool calls returned (printed as the eval's faithfulness rubric prints it) and, when it
 * ran a golden case of one of the tenant's datasets, that case's expected and forbidden facts.
 */
import { currentTenantLabels } from '../db/review';
import { getRunOrThrow } from '../db/runs';
import { NotFoundError } from '../db/core';
import type { Database } from '../db/core';
import { contextFromRun } from '../eval';
import type { GoldenCase } from '../eval';
import { calibrationSetFromLabels, labelsStillNeeded, type LabelledRun } from '../eval';
import type { CalibrationSet } from '../eval';
import { isToolRecord } from '../harness';
import type { Dataset } from '../stockroom';
import { datasetOptions, goldenOf, resolveDataset } from './datasets';

/** Most labelled runs one calibration grades (the newest labels first). */
export const MAX_CALIBRATION_LABELS = 500;

export interface LabelCalibrationSource {
  /** Runs labelled pass or fail as a whole. */
  labelled: number;
  /** How many more such labels a calibration needs (0: it can run). */
  needed: number;
  /** Whole-run pass/fail labels left out because they no longer match their evidence (edited in the database). */
  unverified: { id: string; runId: string; verdict: string }[];
}

/** The runs of `tenant` labelled pass or fail as a whole (current labels), newest first, at most MAX_CALIBRATION_LABELS. */
async function wholeRunLabels(tenant: string, db?: Database) {
  const { labels, unverified } = await currentTenantLabels(tenant, {}, db);
  const usable = labels
    .filter((l): l is typeof l & { verdict: 'pass' | 'fail' } => l.step === null && (l.verdict === 'pass' || l.verdict === 'fail'))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, MAX_CALIBRATION_LABELS);
  return { usable, unverified: unverified.filter((l) => l.step === null).map((l) => ({ id: l.id, runId: l.runId, verdict: l.verdict })) };
}

/** How many usable labels the tenant has, and how many more a calibration needs. */
export async function labelCalibrationSource(tenant: string, db?: Database): Promise<LabelCalibrationSource> {
  const { usable, unverified } = await wholeRunLabels(tenant, db);
  return { labelled: usable.length, needed: labelsStillNeeded(usable.length), unverified };
}

/** The tenant's labelled runs as a calibration set, with how many more labels it needs (the set is null while it needs some). */
export async function labelCalibrationSet(tenant: string, db?: Database): Promise<LabelCalibrationSource & { set: Pick<CalibrationSet, 'name' | 'sha256' | 'items'> | null }> {
  const { usable: labels, unverified } = await wholeRunLabels(tenant, db);
  const needed = labelsStillNeeded(labels.length);
  if (needed > 0) return { labelled: labels.length, needed, unverified, set: null };
  const datasets = new Map<string, { dataset: Dataset; golden: Map<string, GoldenCase> } | null>();
  const idOfName = new Map(datasetOptions(tenant).filter((d) => d.problem === null).map((d) => [d.name, d.id]));
  const datasetNamed = (name: string) => {
    if (!datasets.has(name)) {
      const id = idOfName.get(name);
      const dataset = id ? resolveDataset(id, tenant).dataset : null;
      datasets.set(name, dataset ? { dataset, golden: new Map(goldenOf(dataset).cases.map((c) => [c.id, c])) } : null);
    }
    return datasets.get(name)!;
  };
  const runs: LabelledRun[] = [];
  for (const label of labels) {
    const stored = await getRunOrThrow(label.runId, db).catch((err: unknown) => {
      if (err instanceof NotFoundError) return null; // deleted since it was labelled
      throw err;
    });
    if (!stored) continue;
    const ds = datasetNamed(stored.meta.datasetName);
    const golden = stored.run.caseId ? (ds?.golden.get(stored.run.caseId) ?? null) : null;
    runs.push({
      runId: label.runId,
      query: stored.run.query,
      finalAnswer: stored.run.finalAnswer,
      context: contextFromRun(stored.run.trajectory.filter(isToolRecord), ds?.dataset.floatKeys),
      expectedFacts: golden?.expectedFacts ?? [],
      forbiddenFacts: golden?.forbiddenFacts ?? [],
      verdict: label.verdict,
      score: label.score,
      comment: label.comment,
    });
  }
  return { labelled: runs.length, needed: labelsStillNeeded(runs.length), unverified, set: labelsStillNeeded(runs.length) > 0 ? null : calibrationSetFromLabels(tenant, runs) };
}

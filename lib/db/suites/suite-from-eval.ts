import 'server-only';
/**
 * Thin mapping from lib/eval's results to the data layer: a setting's runs are stored in batched
 * transactions, then its report's metrics and per-case scores, linked to those runs.
 */
import type { EvalReport } from '../../eval';
import type { MatrixResult } from '../../eval';
import type { SuiteResult } from '../../eval';
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';
import { saveRuns } from '../runs';
import { completeSuiteRun, saveSuiteSetting, updateSuiteProgress } from './suites';

/** Who the stored runs are attributed to and the tenant they belong to (the CLI's `--as` and `--tenant`). */
export interface RunOwnership {
  createdBy: string | null;
  tenant: string;
}

/**
 * Stores one setting of a suite: every case's run, then the report's metrics and case scores.
 * Returns the stored run ids in case order.
 */
export async function saveEvalSetting(
  suiteRunId: string,
  setting: string,
  suite: SuiteResult,
  report: EvalReport,
  db: Database = getDb(),
  owner?: RunOwnership,
): Promise<string[]> {
  if (report.cases.length !== suite.results.length)
    throw new InvalidInputError('report', `report has ${report.cases.length} cases but the suite ran ${suite.results.length}`);
  report.cases.forEach((c, i) => {
    const ranFor = suite.results[i]!.golden.id;
    if (c.id !== ranFor) throw new InvalidInputError('report', `report case ${i} is ${c.id} but the suite ran ${ranFor}`);
  });
  const ids = await saveRuns(
    suite.results.map((r) => ({
      run: r.run,
      meta: {
        datasetName: report.dataset.name,
        datasetHash: report.dataset.hash,
        transport: report.config.transport,
        category: r.golden.category,
        config: report.config,
        suiteRunId,
        epoch: r.epoch,
        ...(owner ? { createdBy: owner.createdBy, tenant: owner.tenant } : {}),
      },
    })),
    db,
  );
  await saveSuiteSetting(
    suiteRunId,
    {
      setting,
      metrics: report.metrics,
      byCategory: report.by_category,
      reportedAt: report.generatedAt,
      cases: report.cases.map((c, i) => ({ caseId: c.id, epoch: suite.results[i]!.epoch, category: c.category, scores: c.scores, runId: ids[i] ?? null })),
    },
    db,
  );
  return ids;
}

/**
 * Stores a whole matrix (one setting after another, progress advanced per setting) and marks it
 * done. Returns each setting's stored run ids in case order.
 */
export async function saveMatrixResult(suiteRunId: string, matrix: MatrixResult, db: Database = getDb(), owner?: RunOwnership): Promise<Record<string, string[]>> {
  const ids: Record<string, string[]> = {};
  for (const row of matrix.rows) {
    ids[row.setting] = await saveEvalSetting(suiteRunId, row.setting, row.suite, row.report, db, owner);
    await updateSuiteProgress(suiteRunId, { status: 'running' }, db);
  }
  await completeSuiteRun(suiteRunId, { goldenSha256: matrix.golden.sha256, settings: [] }, db);
  return ids;
}

import { beforeAll, describe, expect } from 'vitest';
import { runMatrix, type MatrixResult } from '../../eval/matrix';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../../stockroom/testing/shared-dataset';
import { countRuns } from '../runs/runs-list';
import { getModelInputAt, getRunOrThrow } from '../runs/runs-read';
import { saveMatrixResult } from './suite-from-eval';
import { createSuiteRun, getMatrixCasesThatMoved, getSuiteCases, getSuiteRunOrThrow } from './suites';
import { describeOnDatabases } from '../testing/on-databases';

const hasShared = warnIfNoSharedDataset();

describe.skipIf(!hasShared)('a real weakness matrix stored', () => {
  let matrix: MatrixResult;
  beforeAll(async () => {
    matrix = await runMatrix({ dataset: loadDataset(SHARED_DATASET_DIR) });
  });

  describeOnDatabases('on $name', ({ test, t }) => {
    test('keeps every run exactly, the metrics per setting, and the cases each flag moved', async () => {
      const db = t.db;
      const total = matrix.rows.reduce((n, r) => n + r.suite.results.length, 0);
      const id = await createSuiteRun({ kind: 'matrix', config: {}, datasetName: 'stockroom-v1', datasetHash: matrix.rows[0]!.report.dataset.hash, total }, db);
      await saveMatrixResult(id, matrix, db);

      const suite = await getSuiteRunOrThrow(id, db);
      expect(suite).toMatchObject({ status: 'done', completed: total, goldenSha256: matrix.golden.sha256 });
      expect(Object.fromEntries(suite.settings.map((s) => [s.setting, s.metrics]))).toEqual(
        JSON.parse(JSON.stringify(Object.fromEntries(matrix.rows.map((r) => [r.setting, r.report.metrics])))),
      );
      expect((await countRuns({ suiteRunId: id }, {}, db)).count).toBe(total);

      const cases = await getSuiteCases(id, 'oversized_payload', db);
      const row = matrix.rows.find((r) => r.setting === 'oversized_payload')!;
      const stored = await getRunOrThrow(cases[0]!.runId!, db);
      expect(stored.run).toEqual(JSON.parse(JSON.stringify(row.suite.results[0]!.run)));
      const last = stored.run.modelInputs.length - 1;
      expect((await getModelInputAt(stored.id, last, db)).messages).toEqual(stored.run.modelInputs[last]!.messages);

      const none = matrix.rows.find((r) => r.setting === 'none')!.report.cases;
      const inj = matrix.rows.find((r) => r.setting === 'injection_unguarded')!.report.cases;
      const score = (c: { scores: unknown } | undefined, m: string) => JSON.stringify((c?.scores as Record<string, unknown> | undefined)?.[m] ?? null);
      // A metric the injection flag actually moves on some case (the published matrix has several).
      const [metric, expected] = Object.keys(inj[0]!.scores)
        .map((m) => [m, inj.filter((c) => score(c, m) !== score(none.find((n) => n.id === c.id), m)).map((c) => c.id).sort()] as const)
        .find(([, ids]) => ids.length > 0)!;
      const moved = await getMatrixCasesThatMoved(id, 'injection_unguarded', metric, db);
      expect(moved.map((m) => m.caseId).sort()).toEqual(expected);
    });
  });
});

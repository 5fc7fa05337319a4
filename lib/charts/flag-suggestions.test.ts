import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, WEAKNESS_FLAGS } from '../harness/config';
import { MATRIX_SETTINGS, runMatrix } from '../eval/matrix';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { casesEachFlagMoves, flagsMovingEachCase, movedMetrics, type MatrixCase } from './flag-suggestions';

let cases: MatrixCase[];
let firstCase: string;

beforeAll(async () => {
  const matrix = await runMatrix({ dataset: loadDataset(path.resolve('data')), baseConfig: resolveConfig({}) });
  // The matrix's per-case scores, as the suite tables store them.
  cases = MATRIX_SETTINGS.flatMap((setting) =>
    matrix.reports[setting].cases.map((c) => ({ setting, caseId: c.scores.caseId, category: c.scores.category, runId: `${setting}-${c.scores.caseId}`, scores: c.scores })),
  );
  firstCase = matrix.reports.none.cases[0]!.scores.caseId;
});

describe('casesEachFlagMoves on the bundled dataset’s matrix', () => {
  it('suggests, for every weakness flag, cases whose scores really differ between none and that flag', () => {
    const byFlag = casesEachFlagMoves(cases, WEAKNESS_FLAGS);
    for (const flag of WEAKNESS_FLAGS) {
      expect(byFlag[flag]!.length, `${flag} has no suggestion`).toBeGreaterThan(0);
      for (const s of byFlag[flag]!) {
        const before = cases.find((c) => c.setting === 'none' && c.caseId === s.caseId)!;
        const after = cases.find((c) => c.setting === flag && c.caseId === s.caseId)!;
        expect(movedMetrics(before.scores, after.scores).length).toBeGreaterThan(0);
        expect(s.moved.length).toBeGreaterThan(0);
        expect(s.runId).toBe(after.runId);
        expect(s.baselineRunId).toBe(before.runId);
      }
    }
  });

  it('says which flags move the case the page opens with (the issue saw it move under none of them)', () => {
    const moving = flagsMovingEachCase(cases, WEAKNESS_FLAGS);
    expect(Object.keys(moving)).toContain(firstCase);
    const suggested = casesEachFlagMoves(cases, WEAKNESS_FLAGS, 100);
    for (const flag of WEAKNESS_FLAGS) expect(moving[firstCase]!.includes(flag)).toBe(suggested[flag]!.some((s) => s.caseId === firstCase));
  });
});

describe('casesEachFlagMoves ranking', () => {
  const c = (setting: string, caseId: string, scores: object): MatrixCase => ({ setting, caseId, category: 'x', runId: `${setting}/${caseId}`, scores });
  it('puts cases whose outcome moved before token-only moves, and ignores token noise', () => {
    const rows = [
      c('none', 'A', { toolSelection: 1, inputTokens: 1000 }),
      c('none', 'B', { toolSelection: 1, inputTokens: 1000 }),
      c('none', 'C', { toolSelection: 1, inputTokens: 1000 }),
      c('f', 'A', { toolSelection: 1, inputTokens: 2000 }),
      c('f', 'B', { toolSelection: 0, inputTokens: 1000 }),
      c('f', 'C', { toolSelection: 1, inputTokens: 1001 }),
    ];
    expect(casesEachFlagMoves(rows, ['f'])).toEqual({
      f: [
        { caseId: 'B', category: 'x', moved: ['Tool selection'], baselineRunId: 'none/B', runId: 'f/B' },
        { caseId: 'A', category: 'x', moved: ['Mean input tokens'], baselineRunId: 'none/A', runId: 'f/A' },
      ],
    });
  });
});

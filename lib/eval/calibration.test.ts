import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../stockroom/testing/shared-dataset';
import { calibrateJudge, calibrationSetStatus, loadCalibrationSet } from './calibration';
import { EvalFileError } from './errors';
import { FakeJudge, type Judge, type JudgeItem } from './judge';
import { referenceKappa } from './testing/kappa-reference';

const SET = path.join(SHARED_DATASET_DIR, 'judge_calibration', 'calibration_v1.jsonl');

describe.skipIf(!warnIfNoSharedDataset())('judge calibration on the course calibration set', () => {
  const set = loadCalibrationSet(SET);

  it('scores the fake judge: agreement and kappa equal an independent computation from its own verdicts', async () => {
    const judge = new FakeJudge('v2');
    const result = await calibrateJudge({ judge, set });
    expect(result.items).toHaveLength(set.items.length);
    // The verdicts, asked of the judge directly, and the labels, compared by the textbook formula.
    const verdicts = set.items.map((item) => {
      const base = { query: item.query, answer: item.answer, reference: null, context: item.context };
      const c = judge.verdict({ ...base, expectedFacts: item.expected_facts, forbiddenFacts: item.forbidden_facts, rubric: 'answer_correctness' });
      const f = judge.verdict({ ...base, expectedFacts: [], forbiddenFacts: [], rubric: 'faithfulness' });
      return c.passed && f.passed ? 'pass' : 'fail';
    });
    const ref = referenceKappa(verdicts, set.items.map((i) => i.human_label));
    expect(result.unscored).toBe(0);
    expect(result.overall.n).toBe(set.items.length);
    expect(result.overall.agreement).toBeCloseTo(ref.po, 4);
    expect(result.overall.kappa).toBeCloseTo(ref.kappa!, 4);
    expect(result.items.map((i) => i.verdict)).toEqual(verdicts);
    // The set is built so that agreement is informative: the fake judge is neither perfect on every rubric nor at chance.
    expect(result.faithfulness.agreement).toBeLessThan(1);
    expect(result.overall.kappa!).toBeGreaterThan(0);
  });

  it('gives a judge that repeats the human labels agreement 1 and kappa 1', async () => {
    const labels = new Map(set.items.map((i) => [i.answer + i.context, i.human_label === 'pass']));
    const oracle: Judge = {
      name: 'oracle',
      rubricVersion: 'v2',
      grade: async (item: JudgeItem) => ({ score: 1, passed: labels.get(item.answer + item.context)!, rationale: 'label' }),
    };
    const result = await calibrateJudge({ judge: oracle, set });
    expect(result.overall).toMatchObject({ agreement: 1, kappa: 1 });
  });

  it('counts an item the judge could not score as unscored and leaves it out of the agreement', async () => {
    const first = set.items[0]!.answer;
    const flaky: Judge = {
      name: 'flaky',
      rubricVersion: 'v2',
      grade: async (item) => (item.answer === first ? { unscored: 'malformed_output', detail: 'not a verdict' } : new FakeJudge('v2').verdict(item)),
    };
    const result = await calibrateJudge({ judge: flaky, set });
    expect(result.unscored).toBe(1);
    expect(result.items[0]!.verdict).toBeNull();
    expect(result.overall.n).toBe(set.items.length - 1);
  });
});

describe('reading a calibration set', () => {
  it('names the line and the field of a bad item, and refuses an empty set', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'calibration-'));
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ id: 'C1', query: 'q', answer: 'a', context: 'c', expected_facts: [], forbidden_facts: [], human_label: 'maybe', human_score: 3, rationale: '', probe_group: null, probe_role: null })}\n`);
    expect(() => loadCalibrationSet(bad)).toThrow(EvalFileError);
    expect(() => loadCalibrationSet(bad)).toThrow(/line 1 field human_label/);
    const empty = path.join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n');
    expect(() => loadCalibrationSet(empty)).toThrow(/no items/);
  });
});

describe('calibrationSetStatus: what the Judge page says before anyone presses a button', () => {
  it('names the missing file by its name, and the line at fault of a malformed one, never the directory it is in', () => {
    const missing = calibrationSetStatus({ STOCKROOM_CALIBRATION_SET: '/nonexistent/calibration.jsonl' });
    expect(missing).toEqual({ ok: false, name: 'calibration.jsonl', problem: 'there is no calibration set calibration.jsonl on this server' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'calibration-status-'));
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id": 1}\n');
    const status = calibrationSetStatus({ STOCKROOM_CALIBRATION_SET: bad });
    expect(status.ok).toBe(false);
    if (!status.ok) expect(status.problem).toMatch(/^bad\.jsonl: line 1 field /);
    expect(JSON.stringify(status)).not.toContain(dir);
  });

  it.skipIf(!warnIfNoSharedDataset())('counts the items of a set that is there', () => {
    const status = calibrationSetStatus({});
    expect(status).toEqual({ ok: true, name: 'calibration_v1.jsonl', items: loadCalibrationSet(SET).items.length });
  });
});

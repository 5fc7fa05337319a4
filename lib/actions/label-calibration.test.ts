/**
 * The Judge page's calibration on the tenant's labels: below the minimum it is refused saying how
 * many more labels are needed (nothing stored); with enough, the judge grades the labelled runs and
 * the calibration (items = run ids) is stored in the tenant.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';
import { MIN_CALIBRATION_LABELS } from '../eval/label-calibration';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('calibrating the judge on labels', () => {
  it('refuses with how many more labels are needed, then calibrates on the labelled runs', async () => {
    const { runOneAction } = await import('./run-one');
    const { addLabelAction } = await import('./add-label');
    const { runCalibrationAction } = await import('./run-calibration');
    const { getCalibrationOrThrow, listCalibrations } = await import('../db/review/judge');
    const { DEFAULT_LABEL_SET } = await import('../eval/labels');
    const { goldenOf, resolveDataset } = await import('../runs/datasets');
    const cases = goldenOf(resolveDataset('bundled', 'kittiwake').dataset).cases.slice(0, MIN_CALIBRATION_LABELS);
    const runIds: string[] = [];
    env.as('operator');
    for (const c of cases) {
      const r = await runOneAction({ datasetId: 'bundled', caseId: c.id });
      if (!r.ok) throw new Error(JSON.stringify(r));
      runIds.push(r.data.runId);
    }
    env.as('reviewer');
    // Step labels and other verdicts do not count.
    await addLabelAction({ runId: runIds[0]!, step: 1, verdict: 'fail' });
    for (const id of runIds.slice(0, 3)) expect(await addLabelAction({ runId: id, verdict: 'pass' })).toMatchObject({ ok: true });
    env.as('admin');
    const early = await runCalibrationAction({ judge: 'fake', source: 'labels' });
    expect(early).toMatchObject({ ok: false, code: 'too_few_labels', error: expect.stringContaining(`Label ${MIN_CALIBRATION_LABELS - 3} more`) });
    expect(await listCalibrations('kittiwake')).toEqual([]);

    env.as('reviewer');
    // Every other run fails by the reviewer, whatever the judge thinks.
    for (const [i, id] of runIds.entries()) await addLabelAction({ runId: id, verdict: DEFAULT_LABEL_SET.verdicts[i % 2]! });
    env.as('admin');
    const res = await runCalibrationAction({ judge: 'fake', source: 'labels' });
    if (!res.ok) throw new Error(JSON.stringify(res));
    const stored = await getCalibrationOrThrow(res.data.id, 'kittiwake');
    expect(stored.setName).toBe('labels:kittiwake');
    expect(stored.result.items.map((i) => i.id).sort()).toEqual([...runIds].sort());
    expect(stored.result.items.map((i) => i.human)).toEqual(stored.result.items.map((i) => (runIds.indexOf(i.id) % 2 === 0 ? DEFAULT_LABEL_SET.verdicts[0] : DEFAULT_LABEL_SET.verdicts[1])));
    expect(stored.result.overall.n + stored.unscored).toBe(runIds.length);
    // Another tenant's admin has no labels of this tenant to calibrate on.
    env.as('outsider');
    expect(await listCalibrations('other-depot')).toEqual([]);
  }, 180_000);
});

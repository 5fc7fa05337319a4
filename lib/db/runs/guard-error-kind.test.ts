/**
 * A MODEL_ERROR's typed reason survives the database (issue 22): the guard event's `errorKind`
 * (throttled, auth, timeout, cancelled, …) is stored and read back, so the replay, export and API show
 * what the run recorded, on both databases.
 */
import { expect } from 'vitest';
import type { GuardEvent } from '../../harness/types';
import { getRunOrThrow } from './runs-read';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('a MODEL_ERROR guard event on $name', ({ test, db }) => {
  test('keeps its typed errorKind through a save and a read', async () => {
    const base = makeRun({ runId: 'model-error-kind', terminationReason: 'MODEL_ERROR' });
    // The fixture ends on a generic guard event; this run ends on the model call's typed failure instead.
    const trajectory = base.trajectory.filter((s) => s.kind !== 'guard');
    const step = trajectory.reduce((m, s) => Math.max(m, s.step), 0) + 1;
    const failed: GuardEvent = { kind: 'guard', step, guard: 'model', reason: 'MODEL_ERROR', detail: 'throttled: 429 slow down', errorKind: 'throttled' };
    const run = { ...base, trajectory: [...trajectory, failed] };
    const id = await saveRun(run, makeMeta(), db);
    const read = (await getRunOrThrow(id, db)).run.trajectory.filter((s): s is GuardEvent => s.kind === 'guard' && s.reason === 'MODEL_ERROR');
    expect(read.map((g) => g.errorKind)).toEqual([failed.errorKind]);
  });

  test('reads no errorKind for a guard event that had none', async () => {
    const run = makeRun({ runId: 'guard-without-kind', terminationReason: 'MAX_STEPS' });
    const id = await saveRun(run, makeMeta(), db);
    const guards = (await getRunOrThrow(id, db)).run.trajectory.filter((s): s is GuardEvent => s.kind === 'guard');
    expect(guards.length).toBeGreaterThan(0);
    for (const g of guards) expect(g).not.toHaveProperty('errorKind');
  });
});


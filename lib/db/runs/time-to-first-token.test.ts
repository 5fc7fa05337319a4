/**
 * A streamed model call's time to first token (issue 40) is stored with its turn (migration 0035)
 * on both databases: read back on the run and by the waterfall as measured, and absent (unknown,
 * not 0) for calls that were not streamed. What a failed streamed attempt had received is kept on
 * its retry through a save and a read.
 */
import { expect } from 'vitest';
import { partialNote } from '../../harness/model/partial';
import type { ModelTurn, TrajectoryStep } from '../../harness/types';
import { runWaterfallRows } from './run-waterfall';
import { getRunOrThrow } from './runs-read';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';
import { DEFAULT_TENANT } from '../../governance/principal';

describeOnDatabases('time to first token on $name', ({ test, db }) => {
  test('keeps each streamed turn’s measured time to first token through a save, a read and the waterfall', async () => {
    const base = makeRun({ runId: 'ttft', rounds: 2 });
    let n = 0;
    // The first turn streamed, the second did not.
    const trajectory = base.trajectory.map((s) => (s.kind === 'model_turn' && (n += 1) === 1 ? { ...s, timeToFirstTokenMs: 123.45 } : s));
    const meta = makeMeta();
    const id = await saveRun({ ...base, trajectory }, meta, db);
    const turns = (await getRunOrThrow(id, db)).run.trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
    expect(turns[0]!.timeToFirstTokenMs).toBeCloseTo(123.45, 2);
    for (const turn of turns.slice(1)) expect(turn).not.toHaveProperty('timeToFirstTokenMs');
    const rows = await runWaterfallRows(id, meta.tenant ?? DEFAULT_TENANT, db);
    expect(rows!.model.map((m) => (m.timeToFirstTokenMs === null ? null : Math.round(m.timeToFirstTokenMs * 100) / 100))).toEqual([123.45, ...turns.slice(1).map(() => null)]);
  });

  test('keeps what a failed streamed attempt had received on its retry through a save and a read', async () => {
    const base = makeRun({ runId: 'partial', rounds: 1 });
    const partial = { text: 'Checking "SKU-1001"\nnow', chars: 4000, events: 37 };
    const trajectory = base.trajectory.flatMap((s): TrajectoryStep[] =>
      s.kind === 'model_turn'
        ? [{ kind: 'model_retry', step: s.step, attempt: 1, reason: 'server_error', delayMs: 500, detail: `openai's stream ended before its final event (a chunk with finish_reason)${partialNote(partial)}`, partial }, s]
        : [s],
    );
    const id = await saveRun({ ...base, trajectory }, makeMeta(), db);
    const read = (await getRunOrThrow(id, db)).run.trajectory.find((s) => s.kind === 'model_retry');
    expect(read).toMatchObject({ reason: 'server_error', partial });
  });
});


/**
 * A new session with a tool server, recorded at the call it was opened for (the server had ended the
 * old one), survives the database on both: the run read back has it in place before that call's record,
 * replay's step page and timeline list it, and it is not counted as a guard trip.
 */
import { expect } from 'vitest';
import type { ToolSessionEvent, TrajectoryStep } from '../../harness/types';
import { getRunOrThrow, getRunSteps, getRunSummary } from './runs-read';
import { getRunTimeline } from './run-timeline';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('a new tool-server session on $name', ({ test, db }) => {
  test('is read back in place, listed by replay, and not a guard trip', async () => {
    const base = makeRun({ runId: 'tool-session' });
    const at = base.trajectory.findIndex((s) => s.kind === 'tool_call' && s.step === 2);
    const call = base.trajectory[at] as Extract<TrajectoryStep, { kind: 'tool_call' }>;
    const renewal: ToolSessionEvent = {
      kind: 'tool_session',
      step: call.step,
      toolUseId: call.toolUseId,
      name: call.name,
      server: 'inventory',
      reason: 'session_ended',
      detail: 'the server answered HTTP 404 for the session when tools/call get_stock was sent (it had ended it: reaped after sitting idle, or the server restarted); a new session was opened',
    };
    const run = { ...base, trajectory: [...base.trajectory.slice(0, at), renewal, ...base.trajectory.slice(at)] };
    const id = await saveRun(run, makeMeta(), db);

    const read = (await getRunOrThrow(id, db)).run.trajectory;
    expect(read[at]).toEqual(renewal);
    expect(read[at + 1]).toMatchObject({ kind: 'tool_call', toolUseId: call.toolUseId });
    expect((await getRunSteps(id, { fromStep: call.step, toStep: call.step }, db)).items.map((i) => i.kind)).toContain('tool_session');
    const events = (await getRunTimeline(id, db)).events;
    expect(events.filter((e) => e.kind === 'tool_session')).toEqual([{ kind: 'tool_session', index: at, step: call.step, server: 'inventory', tool: call.name, reason: 'session_ended', detail: renewal.detail }]);
    expect(events.some((e) => e.kind === 'guard' && e.guard === 'tool_session')).toBe(false);
    const without = await saveRun(base, makeMeta(), db);
    expect((await getRunSummary(id, db))?.guardCount).toBe((await getRunSummary(without, db))?.guardCount);
  });
});

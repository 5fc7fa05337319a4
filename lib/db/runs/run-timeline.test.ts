import { expect } from 'vitest';
import { getRunTimeline, getRunTimelineHead, type TimelineDto } from './run-timeline';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('the replay timeline on $name', ({ test, db }) => {
  test("returns every transition, each call's tokens and the events, in order, as numbers", async () => {
    const run = makeRun({ rounds: 7 });
    const id = await saveRun(run, makeMeta(), db);
    const timeline = await getRunTimeline(id, db);
    expect(timeline.transitions).toEqual(run.transitions.map((x, index) => ({ index, ...x })));
    const turns = run.trajectory.filter((s) => s.kind === 'model_turn');
    expect(timeline.calls).toEqual(turns.map((s) => ({ step: s.step, inputTokens: s.inputTokens, outputTokens: s.outputTokens })));
    const events: TimelineDto['events'] = run.trajectory.flatMap((s, index): TimelineDto['events'] =>
      s.kind === 'guard' || s.kind === 'compaction'
        ? [{ ...s, index }]
        : s.kind === 'tool_call' && s.blockedBy
          ? [{ kind: 'blocked' as const, index, step: s.step, guard: s.blockedBy, tool: s.name, code: s.errorCode ?? '' }]
          : [],
    );
    expect(timeline.events).toEqual(events);
    expect(events.length).toBeGreaterThan(0);
    // A call grounded_write blocked is an event even though no guard halted the run.
    expect(timeline.events.some((e) => e.kind === 'blocked' && e.guard === 'grounded_write')).toBe(true);
  });

  test('cuts the skeleton after its first transitions, with the calls and events of the steps they reach and the size of the whole', async () => {
    const run = makeRun({ rounds: 7 });
    const id = await saveRun(run, makeMeta(), db);
    const whole = await getRunTimeline(id, db);
    const limit = 9;
    expect(whole.transitions.length).toBeGreaterThan(limit);
    const { head, rest } = await getRunTimelineHead(id, limit, db);
    expect(rest).toEqual({ transitions: whole.transitions.length, calls: whole.calls.length });
    expect(head.transitions).toEqual(whole.transitions.slice(0, limit));
    const lastStep = head.transitions.at(-1)!.step;
    expect(head.calls).toEqual(whole.calls.filter((c) => c.step <= lastStep));
    expect(head.events).toEqual(whole.events.filter((e) => e.step <= lastStep));
    expect(head.calls.length).toBeLessThan(whole.calls.length);
    // A run no longer than the head comes whole, and says there is nothing more to fetch.
    expect(await getRunTimelineHead(id, whole.transitions.length, db)).toEqual({ head: whole, rest: null });
    expect(await getRunTimelineHead('no-such-run', limit, db)).toEqual({ head: { transitions: [], calls: [], events: [] }, rest: null });
  });

  test('is empty for an unknown run', async () => {
    expect(await getRunTimeline('no-such-run', db)).toEqual({ transitions: [], calls: [], events: [] });
  });
});


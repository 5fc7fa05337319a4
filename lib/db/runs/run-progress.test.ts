/**
 * Issue 24 §5: a tool's progress (MCP notifications/progress) shown live for a running run: stored
 * on the run's row, read by the progress route the replay polls, and only while the step it
 * belongs to has not been stored yet.
 */
import { expect } from 'vitest';
import { ANSWER_SO_FAR_MAX_CHARS, answerSoFarRecorder, getRunProgressOrThrow, storeAnswerSoFar, storeToolProgress, toolProgressRecorder } from './run-progress';
import { replaceRun } from './runs-write';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('tool progress on $name', ({ test, db }) => {
  test("shows the running step's newest tool progress, and none once that step is stored", async () => {
    const run = { ...makeRun({ runId: 'progress-1', rounds: 2 }), status: 'running' as const };
    const id = await saveRun(run, makeMeta(), db);
    expect((await getRunProgressOrThrow(id, db)).toolProgress).toBeNull();
    await storeToolProgress(id, { step: run.steps + 1, toolUseId: 'tu_9', name: 'slow', progress: 3, total: 100, message: 'step 3' }, db);
    expect((await getRunProgressOrThrow(id, db)).toolProgress).toMatchObject({ name: 'slow', progress: 3, total: 100, message: 'step 3' });
    // Progress of a step already stored is over.
    await storeToolProgress(id, { step: run.steps, toolUseId: 'tu_1', name: 'slow', progress: 9, total: null, message: null }, db);
    expect((await getRunProgressOrThrow(id, db)).toolProgress).toBeNull();
  });

  test('keeps the newest of a burst of progress', async () => {
    const run = { ...makeRun({ runId: 'progress-2', rounds: 1 }), status: 'running' as const };
    const id = await saveRun(run, makeMeta(), db);
    const record = toolProgressRecorder(id, db);
    for (let i = 1; i <= 50; i++) record({ step: run.steps + 1, toolUseId: 'tu', name: 'slow', progress: i, total: 50 });
    await expect.poll(async () => (await getRunProgressOrThrow(id, db)).toolProgress?.progress, { timeout: 5_000 }).toBe(50);
  });

  test('leaves a run that is no longer running alone', async () => {
    const id = await saveRun(makeRun({ runId: 'progress-3' }), makeMeta(), db);
    await storeToolProgress(id, { step: 99, toolUseId: 'tu', name: 'slow', progress: 1, total: null, message: null }, db);
    expect((await getRunProgressOrThrow(id, db)).toolProgress).toBeNull();
  });

  // Issue 40, follow a run live: the answer a streamed call has sent so far, shown while it forms.
  test('shows the answer forming for the running step, the newest of a burst, and none once that step is stored', async () => {
    const run = { ...makeRun({ runId: 'answer-1', rounds: 1 }), status: 'running' as const };
    const meta = { ...makeMeta(), id: 'answer-run-1' };
    await saveRun(run, meta, db);
    const record = answerSoFarRecorder(meta.id, db);
    let text = '';
    for (const piece of ['SKU-2001 ', 'is in ', 'aisle ', '4.']) record({ step: run.steps + 1, text: (text += piece) });
    await expect.poll(async () => (await getRunProgressOrThrow(meta.id, db)).answerSoFar?.text, { timeout: 5_000 }).toBe('SKU-2001 is in aisle 4.');
    expect((await getRunProgressOrThrow(meta.id, db)).answerSoFar).toMatchObject({ step: run.steps + 1, truncated: false });
    // The step is stored: the row is rewritten without it, and a write for it that arrives late is refused.
    const next = { ...makeRun({ runId: 'answer-1', rounds: 2 }), status: 'running' as const };
    await replaceRun(next, meta, db);
    await storeAnswerSoFar(meta.id, { step: run.steps + 1, text: 'late' }, db);
    expect((await getRunProgressOrThrow(meta.id, db)).answerSoFar).toBeNull();
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: meta.id } })).answerSoFar).toBeNull();
  });

  test('keeps a long answer bounded and says it was cut; a finished run keeps none', async () => {
    const run = { ...makeRun({ runId: 'answer-2', rounds: 1 }), status: 'running' as const };
    const id = await saveRun(run, makeMeta(), db);
    await storeAnswerSoFar(id, { step: run.steps + 1, text: 'x'.repeat(ANSWER_SO_FAR_MAX_CHARS + 10) }, db);
    const seen = (await getRunProgressOrThrow(id, db)).answerSoFar!;
    expect(seen.truncated).toBe(true);
    expect(seen.text).toHaveLength(ANSWER_SO_FAR_MAX_CHARS);
    const done = await saveRun(makeRun({ runId: 'answer-3' }), makeMeta(), db);
    await storeAnswerSoFar(done, { step: 99, text: 'after the end' }, db);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: done } })).answerSoFar).toBeNull();
  });
});

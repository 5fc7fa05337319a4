/**
 * Issue 24 §5: a tool's progress (MCP notifications/progress) shown live for a running run: stored
 * on the run's row, read by the progress route the replay polls, and only while the step it
 * belongs to has not been stored yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { getRunProgressOrThrow, storeToolProgress, toolProgressRecorder } from './run-progress';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from './testing/run-fixtures';
import { testProviders, type TestDatabase } from './testing/test-databases';

const providers = await testProviders();

describe.each(providers)('tool progress on $name', (provider) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    if (provider.skipReason) return;
    t = await provider.create();
    db = t.db;
  });
  afterAll(async () => {
    await t?.drop();
  });
  const test = provider.skipReason ? it.skip : it;

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
});

/**
 * A streamed live run stored in the database replays to the same record (issue 40): its recorded
 * exchanges (the assembled answers, each call's time to first token) come back from SQLite and
 * PostgreSQL and answer every model call of the replay, as `run --replay-from` and the dashboard's
 * "Replay against…" use them.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { resolveConfig } from '../harness/config';
import { isModelTurn, type RunResult, type TrajectoryStep } from '../harness/types';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { getRunOrThrow } from '../db/runs/runs-read';
import { saveRun } from '../db/runs/runs-write';
import { makeMeta } from '../db/testing/run-fixtures';
import { describeOnDatabases } from '../db/testing/on-databases';
import { liveModelFactory } from './create-model-client';
import { replayModel, replaySourceOf } from './replay-source';
import { resetBreakers } from './resilience';
import { ProviderStub, STUB_CREDENTIALS } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
/** The record without the tools' own latencies (they run again); the model turns' measured times are kept (the recording's). */
const shape = (t: readonly TrajectoryStep[]) => t.map((s) => ({ ...s, ...(s.kind === 'tool_call' ? { latencyMs: 0 } : {}), time: undefined }));
const measured = (r: RunResult) => r.trajectory.filter(isModelTurn).map((t) => [t.latencyMs, t.timeToFirstTokenMs]);

describeOnDatabases('a stored streamed run replayed, on $name', ({ provider, test, db }) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    if (provider.skipReason) return;
    stub = await ProviderStub.start('anthropic');
  });
  afterAll(async () => {
    await stub?.close();
  });

  test('answers every call from the stored exchanges and gives the same record, time to first token included', async () => {
    resetBreakers();
    stub.enqueue(
      { text: 'Looking.', calls: [{ id: 'toolu_1', name: 'get_stock_level', args: { sku: 'SKU-1001' } }], piece: 3 },
      { text: 'There are some in stock.', piece: 2 },
    );
    const config = resolveConfig({ model: 'anthropic:claude-test', modelBaseUrl: stub.baseURL, stream: true });
    const agent = await createStockroomAgent({ dataset, config, liveModel: liveModelFactory(config, { env: STUB_CREDENTIALS.anthropic }) });
    const recorded = await agent.run('How many SKU-1001 are in stock?');
    await agent.close();
    expect(recorded.terminationReason).toBe('COMPLETED');
    const id = await saveRun(recorded, makeMeta({ config }), db);
    const stored = await getRunOrThrow(id, db);
    const requestsBefore = stub.requests.length;

    const replaying = await createStockroomAgent({ dataset, config });
    const replayed = await replaying.run(recorded.query, null, { model: replayModel(replaySourceOf(stored.run, stored.meta.config), null) });
    await replaying.close();
    expect(stub.requests.length).toBe(requestsBefore);
    expect(replayed.terminationReason).toBe('COMPLETED');
    expect(shape(replayed.trajectory)).toEqual(shape(recorded.trajectory));
    expect(measured(replayed)).toEqual(measured(recorded));
    expect(measured(recorded).every(([, ttft]) => typeof ttft === 'number')).toBe(true);
  });
});

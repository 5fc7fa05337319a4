/**
 * Prompt tokens written to the provider's cache (Anthropic `cache_creation_input_tokens`, Bedrock
 * `cacheWriteInputTokens`) are billed above the input rate (issue 22 §2): a run read back from the
 * database keeps them on each model turn and in its usage, so what replay, export and the waterfall
 * price is what the provider billed, on both databases.
 */
import { expect } from 'vitest';
import type { ModelTurn } from '../../harness/types';
import { getRunOrThrow } from './runs-read';
import { saveRun } from './runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('cache writes on $name', ({ test, db }) => {
  test('keeps each turn’s cache-write tokens and the run’s total through a save and a read', async () => {
    const base = makeRun({ runId: 'cache-writes', rounds: 2 });
    let n = 0;
    const trajectory = base.trajectory.map((s) => (s.kind === 'model_turn' ? { ...s, cacheWriteTokens: (n += 1) * 500 } : s));
    const written = trajectory.flatMap((s) => (s.kind === 'model_turn' ? [s.cacheWriteTokens!] : []));
    const total = written.reduce((a, b) => a + b, 0);
    const run = { ...base, trajectory, usage: { ...base.usage, cacheWriteTokens: total } };
    const id = await saveRun(run, makeMeta(), db);
    const read = (await getRunOrThrow(id, db)).run;
    expect(read.trajectory.flatMap((s) => (s.kind === 'model_turn' ? [s.cacheWriteTokens] : []))).toEqual(written);
    expect(read.usage.cacheWriteTokens).toBe(total);
  });

  test('reads none for turns that wrote nothing to a cache', async () => {
    const id = await saveRun(makeRun({ runId: 'no-cache-writes' }), makeMeta(), db);
    const read = (await getRunOrThrow(id, db)).run;
    for (const turn of read.trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn')) expect(turn).not.toHaveProperty('cacheWriteTokens');
    expect(read.usage).not.toHaveProperty('cacheWriteTokens');
  });
});


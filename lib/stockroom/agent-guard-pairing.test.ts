/**
 * naive_retry changes two things (the course's flag table): the legacy shard fails every attempt (the
 * environment) and the repeated-call guard is off (the harness). Keeping the guard on (`repeated_call`)
 * shows the environment's part alone: the same failing shard, stopped by the guard.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { isToolRecord } from '../harness/types';
import { createStockroomAgent } from './agent';
import { defaultDatasetDir, loadDataset } from './dataset/load-dataset';

const dir = defaultDatasetDir();
const dataset = loadDataset(dir);
const golden = readFileSync(path.join(dir, 'golden/stockroom_golden_own_v1.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { id: string; query: string; tags: string[] });
// A case whose run loops under naive_retry: found by running, not by id.
const run = async (id: string, query: string, guards: ('repeated_call' | 'grounded_write')[]) =>
  (await createStockroomAgent({ dataset, config: resolveConfig({ weaknesses: ['naive_retry'], guards }) })).run(query, id);

describe('naive_retry with the repeated-call guard kept on', () => {
  it('stops the same failing shard with REPEATED_CALL where the flag alone loops to MAX_STEPS', async () => {
    let looped = 0;
    for (const c of golden) {
      const alone = await run(c.id, c.query, []);
      if (alone.terminationReason !== 'MAX_STEPS') continue;
      looped += 1;
      const kept = await run(c.id, c.query, ['repeated_call']);
      expect(kept.terminationReason).toBe('REPEATED_CALL');
      // The same failing call, cut short: fewer calls, each of them one the flag alone also made.
      const names = (r: typeof alone) => r.trajectory.filter(isToolRecord).map((t) => t.name);
      expect(names(kept).length).toBeLessThan(names(alone).length);
      expect(new Set(names(kept))).toEqual(new Set(names(alone)));
    }
    expect(looped).toBeGreaterThan(0);
  });
});

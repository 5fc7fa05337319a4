/**
 * The PostgreSQL queue's batch enqueue: one statement for a whole fan-out (graphile-worker's
 * add_jobs), with enqueue's key semantics kept — a key already queued or running adds nothing —
 * and each job's priority stored, so workers take the longest cases first.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { createTestDatabaseUrl, testProviders } from '../db/testing/test-databases';
import { GRAPHILE_SCHEMA, GraphileQueue } from './graphile';
import type { JobPayload } from './types';

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')?.skipReason ?? null;

const job = (caseId: string): JobPayload<'suite-case'> => ({ suiteRunId: 's', datasetDir: '/d', goldenPath: '/g.jsonl', setting: 'none', caseId });

describe.skipIf(pgSkip !== null)('batch enqueue on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let queue: GraphileQueue;
  let client: pg.Client;
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    queue = new GraphileQueue(url);
    await queue.countJobs(); // graphile-worker's schema
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await queue?.close();
    await drop?.();
  });

  const rows = async () =>
    (await client.query<{ key: string; priority: number; locked_at: Date | null }>(`SELECT key, priority, locked_at FROM ${GRAPHILE_SCHEMA}.jobs ORDER BY priority, key`)).rows;

  it('adds every job once with its priority; keys already queued or running add nothing', async () => {
    await queue.enqueueMany('suite-case', [
      { payload: job('a'), key: 'k-a', priority: -300 },
      { payload: job('b'), key: 'k-b', priority: -10 },
      { payload: job('c'), key: 'k-c' },
    ]);
    expect((await rows()).map((r) => [r.key, r.priority])).toEqual([
      ['k-a', -300],
      ['k-b', -10],
      ['k-c', 0],
    ]);
    // A worker has taken k-a (locked): a second fan-out must not start it again beside the running one.
    await client.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET locked_at = now(), locked_by = 'another-worker' WHERE key = 'k-a'`);
    await queue.enqueueMany('suite-case', [
      { payload: job('a'), key: 'k-a', priority: -300 },
      { payload: job('b'), key: 'k-b', priority: -999 },
      { payload: job('d'), key: 'k-d', priority: -5 },
    ]);
    const after = await rows();
    expect(after.map((r) => [r.key, r.priority])).toEqual([
      ['k-a', -300],
      ['k-b', -10],
      ['k-d', -5],
      ['k-c', 0],
    ]);
    expect(after.find((r) => r.key === 'k-a')?.locked_at).not.toBeNull();
    expect(await queue.countJobs('suite-case')).toBe(4);
    await queue.enqueueMany('suite-case', []);
    expect(await queue.countJobs('suite-case')).toBe(4);
  });
});

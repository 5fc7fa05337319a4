/**
 * Keys, schedules and failures as graphile-worker means them (issue 23, part 2), on PostgreSQL with
 * real graphile-worker runners. Observed: every keyed job used `unsafe_dedupe`, so a job with key
 * `sweep` that failed for good blocked every later sweep; a job that could never succeed returned
 * normally and vanished; the sweep was a setInterval in every worker instead of the crontab.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { createTestDatabaseUrl, testProviders } from '../db/testing/test-databases';
import { ConfigError } from '../harness/errors';
import { GRAPHILE_SCHEMA, GraphileQueue, startGraphileRunner, type GraphileRunner } from './graphile';
import type { JobHandlers } from './types';

const pgSkip = (await testProviders()).find((p) => p.name === 'postgres')?.skipReason ?? null;

async function waitFor<T>(what: string, probe: () => Promise<T> | T, done: (v: T) => boolean, limitMs = 60_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(pgSkip !== null)('job keys, the sweep schedule and failed jobs on PostgreSQL', { timeout: 120_000 }, () => {
  let url: string;
  let drop: () => Promise<void>;
  let queue: GraphileQueue;
  let client: pg.Client;
  const runners: GraphileRunner[] = [];
  const calls: Record<string, number> = {};
  let resumeFails = true;

  const handlers: JobHandlers = {
    run: async () => undefined,
    suite: async () => undefined,
    'suite-case': async () => undefined,
    webhook: async () => undefined,
    watch: async () => undefined,
    backfill: async () => undefined,
    async 'governed-resume'(job) {
      calls[job.runId] = (calls[job.runId] ?? 0) + 1;
      // A configuration error can never succeed by retrying.
      if (resumeFails) throw new ConfigError("policy", `no policy file for run ${job.runId}`);
    },
    async sweep() {
      calls.sweep = (calls.sweep ?? 0) + 1;
    },
  };
  const start = async () => {
    const r = await startGraphileRunner({ connectionString: url, concurrency: 2, handlers, queue, onWorkerId: () => undefined, stopSignal: new AbortController().signal, released: () => false, graceMs: 1_000, pollInterval: 200 });
    runners.push(r);
    return r;
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    queue = new GraphileQueue(url);
    await queue.countJobs(); // graphile-worker's schema
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.runner.stop()));
    await client?.end();
    await queue?.close();
    await drop?.();
  });

  it('a job that can never succeed is recorded failed at once with its error (listed by `jobs`), and the same key enqueued again runs: nothing failed blocks later work', async () => {
    await start();
    await queue.enqueue('governed-resume', { runId: 'r1' }, { key: 'governed-resume:r1' });
    const report = await waitFor('the failed job', () => queue.report(), (r) => r.failed.length === 1 && r.byKind[0]?.failed === 1);
    expect(report.failed[0]).toMatchObject({ kind: 'governed-resume', key: 'governed-resume:r1', attempts: 1 });
    expect(report.failed[0]!.error).toMatch(/no policy file for run r1/);
    expect(report.byKind).toEqual([{ kind: 'governed-resume', waiting: 0, running: 0, failed: 1 }]);
    expect(calls.r1).toBe(1); // not retried
    // A later decision on the same run: the key is enqueued again and runs.
    resumeFails = false;
    await queue.enqueue('governed-resume', { runId: 'r1' }, { key: 'governed-resume:r1' });
    await waitFor('the second resume', () => calls.r1 ?? 0, (n) => n === 2);
    // The failed record stays for the operator (its key handed to the new job), and nothing else is left.
    const after = await waitFor('the queue to settle', () => queue.report(), (r) => r.byKind.every((k) => k.waiting === 0 && k.running === 0));
    expect(after.failed).toMatchObject([{ kind: 'governed-resume', key: null, error: 'no policy file for run r1' }]);
    await client.query(`DELETE FROM ${GRAPHILE_SCHEMA}._private_jobs`);
  });

  it('a malformed payload is recorded failed naming the field, not dropped', async () => {
    await client.query(`SELECT ${GRAPHILE_SCHEMA}.add_job('governed-resume', '{"runId": 7}'::json, job_key := 'governed-resume:bad')`);
    const report = await waitFor('the failed job', () => queue.report(), (r) => r.failed.some((f) => f.key === 'governed-resume:bad'));
    expect(report.failed.find((f) => f.key === 'governed-resume:bad')?.error).toMatch(/malformed governed-resume payload: runId/);
    await client.query(`DELETE FROM ${GRAPHILE_SCHEMA}._private_jobs WHERE key = 'governed-resume:bad'`);
  });

  it('the sweep is on the crontab: with two workers it runs once per due time (here a missed minute, backfilled at start)', async () => {
    for (const r of runners.splice(0)) await r.runner.stop();
    // Not across a minute's end: the next minute is a due time of its own, and its sweep would be a
    // second, rightful run (starting two workers on a loaded machine takes seconds).
    const leftInMinute = 60_000 - (Date.now() % 60_000);
    if (leftInMinute < 25_000) await new Promise((r) => setTimeout(r, leftInMinute + 1_000));
    // Both workers knew the sweep, last ran two minutes ago: the minute before now is due.
    await client.query(`INSERT INTO ${GRAPHILE_SCHEMA}._private_known_crontabs (identifier, known_since, last_execution) VALUES ('sweep', now() - interval '1 hour', date_trunc('minute', now()) - interval '2 minutes')
       ON CONFLICT (identifier) DO UPDATE SET known_since = excluded.known_since, last_execution = excluded.last_execution`);
    calls.sweep = 0;
    await Promise.all([start(), start()]);
    await waitFor('the backfilled sweep', () => calls.sweep ?? 0, (n) => n >= 1);
    await new Promise((r) => setTimeout(r, 1_500)); // a second copy would have run by now
    expect(calls.sweep).toBe(1);
    const known = await client.query<{ last: Date }>(`SELECT last_execution AS last FROM ${GRAPHILE_SCHEMA}._private_known_crontabs WHERE identifier = 'sweep'`);
    expect(known.rows[0]!.last.getTime()).toBeGreaterThan(Date.now() - 120_000);
  });
});

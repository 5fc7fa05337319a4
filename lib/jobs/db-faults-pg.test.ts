/**
 * The database fault suite (issue 32, the workers): real worker processes on a THROWAWAY PostgreSQL
 * cluster this test starts on its own port, so restarting it or cutting a worker off touches nobody
 * else. Observed on main: after PostgreSQL restarted mid-matrix a worker stored nothing more (its
 * pool had shut down) while its heartbeat kept beating, so no other worker would take its jobs.
 * Each fault is bounded in time and ends asserting 0 cases lost and 0 stored twice. The figures
 * (seconds from the database back to the first stored case) are printed by `npm run bench`.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../models/model-server/server';
import { pgClusterSkipReason } from '../db/testing/pg-cluster';
import { createNetnsPair, netnsSkipReason, spawnModelServerIn, type NetnsPair } from './testing/netns';
import { startFaultRig, waitFor, type FaultRig } from './testing/faults';
import { spawnWorker, type WorkerProcess } from './testing/worker-processes';
import { GRAPHILE_SCHEMA } from './graphile';

const skip = pgClusterSkipReason();
if (skip) console.warn(`db-faults-pg: skipped: ${skip}`);
/** Worker processes on a shared, loaded machine: generous bounds (these are not timing assertions). */
const TEST_LIMIT_MS = 300_000;

describe.skipIf(skip !== null)('workers survive the database (throwaway PostgreSQL cluster)', { timeout: TEST_LIMIT_MS }, () => {
  let rig: FaultRig;
  const servers: ModelServer[] = [];
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    rig = await startFaultRig();
  }, 120_000);
  // Each fault starts from no worker: one left from the last would take its jobs.
  afterEach(async () => {
    for (const w of workers) if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGCONT');
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await rig?.close();
  }, 120_000);

  const start = async (o: Omit<Parameters<typeof spawnWorker>[0], 'databaseUrl'>) => {
    const w = await spawnWorker({ databaseUrl: rig.url, ...o });
    workers.push(w);
    return w;
  };
  const model = async (latencyMs: number) => {
    const s = await startModelServer({ dataset: rig.dataset, latencyMs });
    servers.push(s);
    return s;
  };
  const mine = (w: WorkerProcess, suiteRunId: string, kind = 'stored') => w.lines.filter((l) => l.startsWith(`${kind} ${suiteRunId} `));
  /** Every case stored exactly once and nothing left in the queue. */
  const expectAllOnce = async (suiteRunId: string, total: number, ...ws: WorkerProcess[]) => {
    const why = async () => `${JSON.stringify(await rig.jobsLeft())}\n${ws.map((w) => w.output()).join('\n----\n')}`;
    const status = await waitFor('the suite to finish', () => rig.statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running', 120_000).catch(async (err: unknown) => {
      throw new Error(`${String(err)}\n${await why()}`);
    });
    expect(status, await why()).toBe('done');
    const rows = await rig.storedRows(suiteRunId);
    expect(rows.length, 'stored rows').toBe(total); // 0 lost…
    expect(new Set(rows).size, 'distinct cases').toBe(total); // …0 twice
    const left = await waitFor('the jobs to complete', () => rig.jobsLeft(), (j) => j.length === 0, 30_000).catch(() => rig.jobsLeft());
    expect(left, await why()).toEqual([]);
  };

  it('PostgreSQL restarted mid-suite: the same worker takes jobs again once it is back, no job spends an attempt on it, 0 lost, 0 twice', async () => {
    const server = await model(150);
    const a = await start({ concurrency: 8 });
    const golden = rig.golden(24);
    const { suiteRunId, total } = await rig.queueEval(golden, server);
    // One attempt per case job: a connection loss that spent it would fail the case for good.
    await waitFor('the fan-out', () => rig.queue.withClient(async (c) => (await c.query(`UPDATE ${GRAPHILE_SCHEMA}._private_jobs SET max_attempts = 1 WHERE key LIKE $1`, [`suite-case:${suiteRunId}:%`])).rowCount ?? 0), (n) => n === total, 60_000);
    await waitFor('a few stored cases with others running', async () => [mine(a, suiteRunId).length, await rig.lockedJobs(suiteRunId)] as const, ([s, l]) => s >= 3 && l > 0, 120_000);
    const before = mine(a, suiteRunId).length;
    expect(before).toBeLessThan(total); // else the restart proves nothing
    await rig.cluster.restart(2_000);
    await expectAllOnce(suiteRunId, total, a);
    expect(mine(a, suiteRunId).length).toBe(total); // the one worker did it all, after the restart too
    expect(a.proc.exitCode).toBeNull(); // restored in-process, not restarted by anyone
  });

  it('a worker paused (SIGSTOP) past its lease and woken (SIGCONT) while another redoes its cases stores nothing: the new owner’s runs stand, 0 twice', async () => {
    const server = await model(700);
    const a = await start({ concurrency: 4, leaseMs: 2_000 });
    const golden = rig.golden(4);
    const { suiteRunId, total } = await rig.queueEval(golden, server);
    await waitFor('every case running on the first worker', () => rig.lockedJobs(suiteRunId), (n) => n === total, 60_000);
    // Well into each case (a call or two answered), so on waking it is ahead of any new owner.
    await waitFor('model calls under way', async () => server.requests, (n) => n >= total * 2, 60_000);
    a.proc.kill('SIGSTOP');
    const b = await start({ concurrency: 4, leaseMs: 2_000 });
    await waitFor('the second worker to take every case', async () => new Set(mine(b, suiteRunId, 'started')).size, (n) => n === total, 60_000);
    expect(mine(a, suiteRunId)).toEqual([]);
    a.proc.kill('SIGCONT');
    await expectAllOnce(suiteRunId, total, a, b);
    // Every case the woken worker carried on with was refused at its store (fenced), none stored by it.
    await waitFor('the woken worker’s cases to end', async () => mine(a, suiteRunId, 'lease-lost').length, (n) => n === total, 60_000).catch(() => undefined);
    expect(mine(a, suiteRunId), a.output()).toEqual([]);
    expect(mine(a, suiteRunId, 'lease-lost').length, a.output()).toBe(total);
    expect(mine(b, suiteRunId).length).toBe(total);
  });

  it('a worker killed (SIGKILL) while its cases are being stored: another releases them after its lease and finishes, 0 lost, 0 twice', async () => {
    const server = await model(40);
    const a = await start({ concurrency: 8, leaseMs: 2_000 });
    const b = await start({ concurrency: 2, leaseMs: 2_000 });
    const golden = rig.golden(24);
    const { suiteRunId, total } = await rig.queueEval(golden, server);
    // Killed the moment it reports a stored case: its other slots are storing or about to.
    await waitFor('the first worker storing', async () => mine(a, suiteRunId).length, (n) => n >= 2, 120_000);
    a.kill9();
    await a.exited;
    await expectAllOnce(suiteRunId, total, a, b);
  });
});

const netSkip = skip ?? netnsSkipReason();
if (netSkip) console.warn(`db-faults-pg network cut: skipped: ${netSkip}`);

describe.skipIf(netSkip !== null)('a worker cut off from PostgreSQL (network namespace, veth link down 20 s)', { timeout: TEST_LIMIT_MS }, () => {
  let pair: NetnsPair;
  let rig: FaultRig;
  let model: ChildProcess | null = null;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    pair = createNetnsPair('t');
    rig = await startFaultRig({ extraListen: [pair.hostIp] });
  }, 120_000);
  afterAll(async () => {
    pair?.up();
    await Promise.all(workers.map((w) => w.stop()));
    model?.kill('SIGTERM');
    await rig?.close();
    pair?.destroy();
  }, 120_000);

  it('link down 20 s mid-suite: the cut worker takes jobs again once it is back (as after a restart), 0 lost, 0 twice', async () => {
    // The worker runs inside the namespace: its database across the veth pair, its model server on the namespace's own loopback.
    const served = await spawnModelServerIn(pair, rig.dataset.dir, 150);
    model = served.proc;
    const a = await spawnWorker({ databaseUrl: rig.cluster.url('stockroom', pair.hostIp), concurrency: 8, wrap: pair.exec });
    workers.push(a);
    const { suiteRunId, total } = await rig.queueEval(rig.golden(24), { url: served.url } as ModelServer);
    await waitFor('a few stored cases with others running', async () => [a.stored.filter((s) => s.startsWith(`${suiteRunId} `)).length, await rig.lockedJobs(suiteRunId)] as const, ([s, l]) => s >= 3 && l > 0, 120_000);
    pair.down();
    await new Promise((r) => setTimeout(r, 20_000));
    pair.up();
    const status = await waitFor('the suite to finish', () => rig.statusOf(suiteRunId), (s) => s !== 'queued' && s !== 'running', 180_000).catch(async (err: unknown) => {
      throw new Error(`${String(err)}\n${JSON.stringify(await rig.jobsLeft())}\n${a.output()}`);
    });
    expect(status, a.output()).toBe('done');
    const rows = await rig.storedRows(suiteRunId);
    expect(rows.length).toBe(total);
    expect(new Set(rows).size).toBe(total);
    expect(a.proc.exitCode).toBeNull();
  });
});

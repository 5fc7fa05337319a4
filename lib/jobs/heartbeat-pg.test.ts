/**
 * Heartbeats on PostgreSQL (issue 42): the store beats over a connection of its own with the
 * database's clock, a worker past its lease is released and forgotten while one within it is not,
 * the judge learns when the next lease ends (so it wakes then, not at its next beat), and a worker
 * that could not beat judges nobody until it has beaten for a whole lease again, and a live worker
 * taken for dead says so at its next beat. The takeover with
 * real worker processes is in approvals-faults-pg.test.ts and db-faults-pg.test.ts.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '../db/testing/test-databases';
import { pgClusterSkipReason } from '../db/testing/pg-cluster';
import { openHeartbeatStore, type HeartbeatStore } from '../db/core/worker-heartbeats';
import { beat, startHeartbeat, type HeartbeatOptions } from './heartbeat';

const skip = pgClusterSkipReason();
if (skip) console.warn(`heartbeat-pg.test: skipped: ${skip}`);

describe.skipIf(skip !== null)('worker heartbeats on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let sql: pg.Client;
  const stores: HeartbeatStore[] = [];
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabaseUrl('postgres'));
    await migrate({ url });
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
    await sql?.end();
    await drop?.();
  });
  const store = () => {
    const s = openHeartbeatStore(url);
    stores.push(s);
    return s;
  };
  /** A peer row last seen `agoMs` ago by the database's clock. */
  const peer = async (id: string, agoMs: number, workerIds: string[]) => {
    await sql.query(
      `INSERT INTO "WorkerHeartbeat" (id, "workerIds", concurrency, slots, "startedAt", "lastSeen")
       VALUES ($1, $2, 1, 1, now() AT TIME ZONE 'UTC', (now() AT TIME ZONE 'UTC') - make_interval(secs => $3::float8 / 1000))
       ON CONFLICT (id) DO UPDATE SET "lastSeen" = EXCLUDED."lastSeen"`,
      [id, JSON.stringify(workerIds), agoMs],
    );
  };
  const rows = async () => (await sql.query<{ id: string }>(`SELECT id FROM "WorkerHeartbeat" ORDER BY id`)).rows.map((r) => r.id);
  const options = (id: string, s: HeartbeatStore, released: string[][], leaseMs: number): HeartbeatOptions => ({
    store: s,
    id,
    concurrency: 2,
    slots: () => 2,
    workerIds: () => [`pool-${id}`],
    release: async (ids) => {
      released.push(ids);
    },
    leaseMs,
    intervalMs: Math.floor(leaseMs / 6),
  });

  it('releases and forgets a worker past its lease by the database clock, keeps one within it, and says when its lease ends', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    await peer('dead', 60_000, ['pool-dead', 'worker-dead']);
    await peer('busy', 1_000, ['pool-busy']);
    const released: string[][] = [];
    const r = await beat(options('judge', store(), released, 30_000));
    expect(released).toEqual([['pool-dead', 'worker-dead']]);
    expect(r?.released).toEqual(['dead']);
    // The busy worker's lease (30 s, seen 1 s ago) still runs: the judge is told roughly when it ends.
    expect(r?.nextExpiryMs).toBeGreaterThan(0);
    expect(r?.nextExpiryMs).toBeLessThanOrEqual(29_000);
    expect(await rows()).toEqual(['busy', 'judge']);
  });

  it('a worker that beat again before it is forgotten is not forgotten', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    await peer('late', 60_000, ['pool-late']);
    const s = store();
    const [seen] = await s.peers('judge', 30_000);
    expect(seen!.leftMs).toBeLessThan(0);
    await peer('late', 0, ['pool-late']); // it beats between the judge's read and its forget
    expect(await s.forget('late', 30_000)).toBe(false);
    expect(await rows()).toEqual(['late']);
  });

  it('a worker without a working slot does not beat, and judges nobody', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    await peer('dead', 60_000, ['pool-dead']);
    const released: string[][] = [];
    expect(await beat({ ...options('judge', store(), released, 30_000), slots: () => 0 })).toBeNull();
    expect(released).toEqual([]);
    expect(await rows()).toEqual(['dead']);
  });

  it('wakes when another worker’s lease ends and releases it then, not at its own next beat', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    await peer('dying', 0, ['pool-dying']); // beat just now, then died
    const released: string[][] = [];
    // The judge's own beats are an hour apart: only the wake at the lease's end can release the dead one.
    const hb = startHeartbeat({ ...options('judge', store(), released, 1_000), intervalMs: 3_600_000 });
    try {
      await until(() => released.length > 0);
      expect(released).toEqual([['pool-dying']]);
    } finally {
      await hb.stop();
    }
  });

  it('keeps beating while a release waits (on a job row a paused worker holds locked), so the judge does not look dead itself', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    await peer('paused', 60_000, ['pool-paused']);
    let unblock: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    let releasing = false;
    const hb = startHeartbeat({
      ...options('judge', store(), [], 1_200),
      release: async () => {
        releasing = true;
        await blocked;
      },
    });
    try {
      await until(() => releasing);
      const seen = hb.lastBeat();
      await until(() => hb.lastBeat() !== seen); // a beat landed while the release still waits
      expect(releasing).toBe(true);
    } finally {
      unblock();
      await hb.stop();
    }
  });

  it('a live worker whose row another worker forgot (taken for dead) says so on its next beat', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const released: string[][] = [];
    const hb = startHeartbeat({ ...options('busy', store(), released, 1_200) });
    try {
      await until(() => hb.lastBeat() !== null);
      expect(errors.mock.calls.flat().join('\n')).not.toContain('taken for dead');
      await sql.query(`DELETE FROM "WorkerHeartbeat" WHERE id = 'busy'`); // another worker released and forgot it
      await until(() => errors.mock.calls.flat().join('\n').includes('taken for dead'));
      expect(await rows()).toEqual(['busy']);
    } finally {
      await hb.stop();
      errors.mockRestore();
    }
  });

  it('after beats that failed (the database away), a worker judges nobody until it has beaten for a whole lease: then it releases the dead one', async () => {
    await sql.query(`DELETE FROM "WorkerHeartbeat"`);
    const leaseMs = 1_200;
    const real = store();
    let failing = true;
    const order: string[] = [];
    const flaky: HeartbeatStore = {
      ...real,
      touch: async (row, lease) => {
        if (failing) {
          order.push('failed');
          throw new Error('connection terminated (test)');
        }
        order.push('beat');
        return real.touch(row, lease);
      },
    };
    const released: string[][] = [];
    const hb = startHeartbeat({ ...options('judge', flaky, released, leaseMs), release: async (ids) => void (released.push(ids), order.push('released')) });
    try {
      await until(() => order.includes('failed'));
      // The other worker's row is already past its lease when the judge's database comes back.
      await peer('other', leaseMs * 5, ['pool-other']);
      failing = false;
      await until(() => released.length > 0);
      // Beats landed before the release (a whole lease of them), never the release at the first beat back.
      const firstBeat = order.indexOf('beat');
      const release = order.indexOf('released');
      expect(firstBeat).toBeGreaterThan(-1);
      expect(order.slice(firstBeat, release).filter((o) => o === 'beat').length).toBeGreaterThan(1);
      expect(released).toEqual([['pool-other']]);
    } finally {
      await hb.stop();
    }
    expect(await rows()).toEqual([]);
  });
});

async function until(check: () => boolean, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

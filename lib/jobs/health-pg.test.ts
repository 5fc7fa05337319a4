/**
 * GET /api/health for a load balancer: 200 with the database's and the queue's state while
 * PostgreSQL answers, 503 with Retry-After (the reason, no stack) while this test's own cluster is
 * stopped, and 200 again by itself once it is back; on the embedded SQLite default, the in-process queue.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../scripts/db-migrate.mjs';
import { closeDb } from '../db/core/client';
import { createTestDatabaseUrl } from '../db/testing/test-databases';
import { pgClusterSkipReason, startPgCluster, type PgCluster } from '../db/testing/pg-cluster';
import { closeJobQueue } from './queue';

const skip = pgClusterSkipReason();
if (skip) console.warn(`health-pg.test: PostgreSQL part skipped: ${skip}`);

async function health(): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> {
  const { GET } = await import('../../app/api/health/route');
  const res = await GET();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

describe('/api/health on SQLite', () => {
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const made = await createTestDatabaseUrl('sqlite');
    drop = made.drop;
    await migrate({ url: made.url });
    process.env.DATABASE_URL = made.url;
  });
  afterAll(async () => {
    await closeJobQueue();
    await closeDb();
    await drop();
  });

  it('answers 200 with the database reachable and the in-process queue', async () => {
    const h = await health();
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ ok: true, database: { ok: true, provider: 'sqlite', latencyMs: expect.any(Number) }, queue: { ok: true, backend: 'in-process' } });
  });
});

describe.skipIf(skip)('/api/health on PostgreSQL through a restart', () => {
  let cluster: PgCluster;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    cluster = await startPgCluster();
    const made = await createTestDatabaseUrl('postgres', cluster.server);
    drop = made.drop;
    await migrate({ url: made.url });
    process.env.DATABASE_URL = made.url;
  }, 120_000);
  afterAll(async () => {
    await closeJobQueue();
    await closeDb();
    await drop?.().catch(() => undefined);
    await cluster?.destroy();
  });

  it('reports the database and the queue, answers 503 while PostgreSQL is stopped, and 200 again once it is back', async () => {
    const { getJobQueue } = await import('./queue');
    await getJobQueue().enqueue('sweep', {});
    // The probe gives the database 2 s (HEALTH_PROBE_TIMEOUT_MS); on a loaded machine a first probe can miss it.
    const up = await vi.waitFor(async () => {
      const r = await health();
      expect(r.status).toBe(200);
      return r;
    }, { timeout: 30_000, interval: 250 });
    expect(up.body).toMatchObject({
      ok: true,
      database: { ok: true, provider: 'postgres' },
      queue: { ok: true, backend: 'graphile-worker', workersOnline: 0, slots: 0, waiting: 1, running: 0, failed: 0 },
    });

    await cluster.stop();
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.retryAfter).toMatch(/^\d+$/);
    expect(down.body).toMatchObject({ ok: false, database: { ok: false, provider: 'postgres', reason: 'unreachable', error: 'The database is unavailable, retrying.' }, queue: { ok: false } });
    expect(JSON.stringify(down.body)).not.toMatch(/\bat .*\.(js|ts):\d+/);

    await cluster.start();
    // A pooled connection the stop cut may answer the first probe after the start; it recovers by itself.
    const back = await vi.waitFor(async () => {
      const r = await health();
      expect(r.status).toBe(200);
      return r;
    }, { timeout: 30_000, interval: 250 });
    expect(back.body).toMatchObject({ ok: true, database: { ok: true }, queue: { ok: true, waiting: 1 } });
  });
});

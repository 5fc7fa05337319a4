/**
 * A watch drain and an evaluator backfill that complete the same runs take turns on their RunRolled
 * rows (rolledContributions locks them FOR UPDATE): the one that waited must read what the other
 * wrote. CI saw a backfill count 45 scores for 30 runs: the drain deleted the rows and inserted them
 * again, and PostgreSQL's FOR UPDATE skips a row deleted while it waited, so the backfill read
 * "never rolled up" for the drain's runs and added them a second time.
 */
import { expect } from 'vitest';
import type { Database } from '../core/client';
import { describeOnDatabases } from '../testing/on-databases';
import { rolledContributions, saveContributions } from './rollup';

describeOnDatabases('rolled-up contributions under two writers on $name', ({ provider, test, db }) => {
  const inTx = <T>(work: (txDb: Database) => Promise<T>): Promise<T> =>
    db.prisma.$transaction((tx) => work({ prisma: tx as unknown as Database['prisma'], provider: db.provider, close: db.close }), { timeout: 30_000 });

  test('a writer that waited for the rows reads the contributions the other one saved, and each run keeps one row', async () => {
    const ids = ['run-a', 'run-b', 'run-c'];
    await saveContributions(db, ids.map((runId) => ({ runId, tenant: 't', contribution: '{"v":1}' })));
    if (provider.name !== 'postgres') {
      // One writer at a time: saving again replaces in place.
      await saveContributions(db, ids.map((runId) => ({ runId, tenant: 't', contribution: '{"v":2}' })));
    } else {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const lockedNow = new Promise<void>((r) => (locked = r));
      const first = inTx(async (txDb) => {
        expect([...(await rolledContributions(txDb, ids, true)).values()]).toEqual(['{"v":1}', '{"v":1}', '{"v":1}']);
        locked();
        await held;
        await saveContributions(txDb, ids.map((runId) => ({ runId, tenant: 't', contribution: '{"v":2}' })));
      });
      await lockedNow;
      // The second writer asks while the first holds the rows; it gets them once the first commits.
      const second = inTx((txDb) => rolledContributions(txDb, ids, true));
      await new Promise((r) => setTimeout(r, 200));
      release();
      await first;
      expect([...(await second).values()]).toEqual(['{"v":2}', '{"v":2}', '{"v":2}']);
    }
    const rows = await db.prisma.runRolled.findMany({ where: { runId: { in: ids } }, orderBy: { runId: 'asc' } });
    expect(rows.map((r) => [r.runId, r.contribution])).toEqual(ids.map((id) => [id, '{"v":2}']));
  });
});

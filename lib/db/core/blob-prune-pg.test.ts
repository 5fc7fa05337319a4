/**
 * Runs stored and deleted at once on PostgreSQL, sharing their large payloads (content-addressed
 * blobs). Observed (issue 23): at 5 run starts per second, job attempts failed with
 * `RunBlobRef_hash_fkey`: one run's delete pruned a blob that another run was adding a reference to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { deleteRun, replaceRun, saveRun } from '../runs/runs-write';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { testProviders, type TestDatabase } from '../testing/test-databases';

const pg = (await testProviders()).find((p) => p.name === 'postgres')!;

describe.skipIf(pg.skipReason !== null)('storing and deleting runs that share blobs, at once, on PostgreSQL', { timeout: 240_000 }, () => {
  let t: TestDatabase;
  const clients: Database[] = [];
  beforeAll(async () => {
    t = await pg.create();
    // Separate clients, as the web server and the workers are.
    for (let i = 0; i < 4; i++) clients.push(openDatabase(t.url));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t?.drop();
  });

  it('no store or delete fails; every stored run keeps its blobs, and blobs no run uses are pruned', async () => {
    const rounds = 40;
    const failures: string[] = [];
    let kept = 0;
    await Promise.all(
      clients.map(async (db, w) => {
        for (let i = 0; i < rounds; i++) {
          try {
            const id = await saveRun(makeRun({ runId: `r${w}-${i}` }), makeMeta(), db);
            // Half the runs are replaced by a newer version of themselves (a governed resume), then deleted; some stay.
            if (i % 2 === 0) await replaceRun(makeRun({ runId: id, rounds: 2 }), { ...makeMeta(), id }, db);
            if (i % 5 !== 4) await deleteRun(id, db);
            else kept += 1;
          } catch (err) {
            failures.push(err instanceof Error ? err.message.split('\n').filter(Boolean).slice(-1)[0]! : String(err));
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    const db = t.db;
    expect(await db.prisma.run.count()).toBe(kept);
    const orphanRefs = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "RunBlobRef" r WHERE NOT EXISTS (SELECT 1 FROM "Blob" b WHERE b."hash" = r."hash")`;
    expect(Number(orphanRefs[0]!.n)).toBe(0);
    const unused = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Blob" b WHERE NOT EXISTS (SELECT 1 FROM "RunBlobRef" r WHERE r."hash" = b."hash")`;
    expect(Number(unused[0]!.n)).toBe(0);
  });
});

/**
 * The durable restock ledger: a write that happened is found by operation key after a restart and
 * from another process, and a second process with the same key gets the first record without the
 * tool running again.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { JournaledExecutor } from '../../governance/journaled-executor';
import { reconcileEntry } from '../../governance/reconcile';
import { ledgerStoreReconciler } from '../../stockroom/ledger/reconcilers';
import type { ToolExecutor } from '../../harness/executor';
import { clearDatasetCache, loadDataset } from '../../stockroom/dataset/load-dataset';
import type { Dataset } from '../../stockroom/dataset/types';
import { StockroomEnvironment } from '../../stockroom/environment';
import { LocalToolExecutor } from '../../stockroom/executor/local-executor';
import { DurableLedgerExecutor } from '../../stockroom/ledger/durable-ledger-executor';
import { writeFixtureDataset } from '../../stockroom/testing/fixture-dataset';
import { openDatabase } from '../core/client';
import { PrismaJournalStore } from './governance-journal';
import { PrismaLedgerStore } from './restock-ledger-store';
import { describeOnDatabases } from '../testing/on-databases';

let dir: string;
let dataset: Dataset;
beforeAll(() => {
  dir = writeFixtureDataset();
  dataset = loadDataset(dir);
});
afterAll(() => {
  clearDatasetCache();
  fs.rmSync(dir, { recursive: true, force: true });
});

const RESTOCK = { sku: 'SKU-2003', quantity: 20 };

/** The downstream applies the write, then the process dies before the answer is recorded. */
function crashesAfterWrite(inner: ToolExecutor): ToolExecutor {
  return Object.assign(Object.create(inner) as ToolExecutor, {
    call: async (...args: Parameters<ToolExecutor['call']>) => {
      await inner.call(...args);
      throw new Error('process died after dispatch');
    },
  });
}

describeOnDatabases('the durable restock ledger on $name', ({ provider, test, t }) => {
  test('after a restart, reconciliation finds a write that happened (not reconciled_absent)', async () => {
    const key = `op:run-restart-${provider.name}:call-1:create_restock_request@1`;
    const first = openDatabase(t.url);
    const env = new StockroomEnvironment(dataset, []);
    const downstream = new DurableLedgerExecutor(new LocalToolExecutor(env), new PrismaLedgerStore(first.prisma), 'run-restart');
    const journaled = new JournaledExecutor(crashesAfterWrite(downstream), { store: new PrismaJournalStore(first.prisma), runId: 'run-restart', isWrite: () => true, toolVersion: () => '1' });
    expect(await journaled.call('create_restock_request', RESTOCK, { operationKey: key })).toMatchObject({ errorCode: 'effect_unknown' });
    await first.close();

    // The restart: a new process with nothing in memory from the first.
    const second = openDatabase(t.url);
    try {
      const moved = await reconcileEntry(new PrismaJournalStore(second.prisma), ledgerStoreReconciler(new PrismaLedgerStore(second.prisma)), key);
      expect(moved).toMatchObject({ status: 'reconciled_committed', result: { request_id: 'RSR-0001', sku: 'SKU-2003', quantity: 20 } });
    } finally {
      await second.close();
    }
  });

  test('another process with the same operation key gets the first record and the tool does not run again', async () => {
    const key = `op:run-twice-${provider.name}:call-1:create_restock_request@1`;
    const a = openDatabase(t.url);
    const b = openDatabase(t.url);
    try {
      const envA = new StockroomEnvironment(dataset, []);
      const envB = new StockroomEnvironment(dataset, []);
      const first = await new DurableLedgerExecutor(new LocalToolExecutor(envA), new PrismaLedgerStore(a.prisma), 'run-twice').call('create_restock_request', RESTOCK, { operationKey: key });
      const again = await new DurableLedgerExecutor(new LocalToolExecutor(envB), new PrismaLedgerStore(b.prisma), 'run-twice').call('create_restock_request', { ...RESTOCK, quantity: 30 }, { operationKey: key });
      expect(again.content).toEqual(first.content);
      expect(envB.ledger.records()).toHaveLength(0);
      expect(await new PrismaLedgerStore(b.prisma).find('op:never')).toBeNull();
    } finally {
      await a.close();
      await b.close();
    }
  });
  test("a tenant's governed runs name their records in one sequence, not RSR-0001 each (another tenant has its own)", async () => {
    const db = openDatabase(t.url);
    try {
      const write = async (tenant: string, run: string, quantity = 20) => {
        // A fresh course environment per run: its own ledger starts again at RSR-0001 every time.
        const env = new StockroomEnvironment(dataset, []);
        const out = await new DurableLedgerExecutor(new LocalToolExecutor(env), new PrismaLedgerStore(db.prisma, tenant), run).call(
          'create_restock_request',
          { ...RESTOCK, quantity },
          { operationKey: `op:${run}:call-1:create_restock_request@1` },
        );
        return { name: (out.content as { request_id: string }).request_id, own: env.ledger.records().map((r) => r.request_id) };
      };
      const runs = [await write(`seq-a-${provider.name}`, `seq-a1-${provider.name}`), await write(`seq-a-${provider.name}`, `seq-a2-${provider.name}`), await write(`seq-a-${provider.name}`, `seq-a3-${provider.name}`)];
      expect(runs.map((r) => r.own)).toEqual([['RSR-0001'], ['RSR-0001'], ['RSR-0001']]);
      expect(runs.map((r) => r.name)).toEqual(['RSR-0001', 'RSR-0002', 'RSR-0003']);
      expect((await write(`seq-b-${provider.name}`, `seq-b1-${provider.name}`)).name).toBe('RSR-0001');
      // The same operation key again is the same record, under the name it was kept with; the tool does not run.
      expect(await write(`seq-a-${provider.name}`, `seq-a2-${provider.name}`, 30)).toEqual({ name: 'RSR-0002', own: [] });
      const kept = await db.prisma.restockLedgerRecord.findMany({ where: { tenant: `seq-a-${provider.name}` }, orderBy: { seq: 'asc' } });
      expect(kept.map((r) => [r.seq, r.requestId])).toEqual([
        [1, 'RSR-0001'],
        [2, 'RSR-0002'],
        [3, 'RSR-0003'],
      ]);
    } finally {
      await db.close();
    }
  });

  test('writes of one tenant racing for the next number each get their own', async () => {
    const db = openDatabase(t.url);
    try {
      const tenant = `seq-race-${provider.name}`;
      const names = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          new PrismaLedgerStore(db.prisma, tenant).put({
            operationKey: `op:race-${provider.name}-${i}:c:create_restock_request@1`,
            runId: `race-${i}`,
            record: { request_id: 'RSR-0001', sku: 'SKU-2003', product_name: 'x', quantity: 20, priority: 'standard', status: 'open', supplier_id: 's', supplier_name: 's', lead_time_days: 1, note: '' },
          }),
        ),
      );
      expect(new Set(names.map((n) => n.request_id)).size).toBe(6);
    } finally {
      await db.close();
    }
  });
});

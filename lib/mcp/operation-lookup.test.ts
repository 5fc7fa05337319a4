/**
 * A write over MCP whose answer is lost after the server applied it: the journal must say unknown
 * (never failed), and reconciliation asks the server by operation key and finds the record.
 */
import fs from 'node:fs';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournaledExecutor } from '../governance/journaled-executor';
import { MemoryJournalStore } from '../governance/memory-journal-store';
import { operationReconciler, reconcileEntry } from '../governance/reconcile';
import { clearDatasetCache, loadDataset } from '../stockroom/dataset/load-dataset';
import type { Dataset } from '../stockroom/dataset/types';
import { StockroomEnvironment } from '../stockroom/environment';
import { writeFixtureDataset } from '../stockroom/testing/fixture-dataset';
import { McpToolExecutor } from './client/mcp-executor';
import { createStockroomServer } from './server/stockroom-server';

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

const KEY = 'op:run-1:call-1:create_restock_request@1';
const RESTOCK = { sku: 'SKU-2003', quantity: 20 };

/** A server whose answers to restock writes are held back (lost) or whose connection drops after the write. */
async function downstream(fault: 'late_answer' | 'drop_after_write') {
  const env = new StockroomEnvironment(dataset, []);
  const server = createStockroomServer({ dataset, weaknesses: [], environment: env });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = serverSide.send.bind(serverSide);
  serverSide.send = async (message: JSONRPCMessage, options) => {
    if (JSON.stringify(message).includes('RSR-0001') && !JSON.stringify(message).includes('"found"')) {
      if (fault === 'drop_after_write') {
        await serverSide.close();
        return;
      }
      setTimeout(() => void send(message, options).catch(() => undefined), 1_000);
      return;
    }
    return send(message, options);
  };
  await server.connect(serverSide);
  const executor = await McpToolExecutor.connect({ transport: clientSide, label: 'mcp-memory', target: 'test server', afterClose: () => server.close() }, { requestTimeoutMs: 150 });
  const journal = new MemoryJournalStore();
  const journaled = (reconcile: boolean) =>
    new JournaledExecutor(executor, { store: journal, runId: 'run-1', isWrite: (t) => t === 'create_restock_request', toolVersion: () => '1', reconciler: reconcile ? operationReconciler(executor) : undefined });
  return { env, executor, journal, journaled };
}

describe('an MCP write whose outcome is lost after dispatch', () => {
  it('is unknown, not failed, and the server is asked by operation key: the record it created is found', async () => {
    const d = await downstream('late_answer');
    try {
      const result = await d.journaled(false).call('create_restock_request', RESTOCK, { operationKey: KEY });
      expect(result).toMatchObject({ isError: true, errorCode: 'effect_unknown' });
      expect(await d.journal.get(KEY)).toMatchObject({ status: 'unknown', error: expect.stringContaining('outcome is unknown') });
      expect(d.env.ledger.records().map((r) => r.request_id)).toEqual(['RSR-0001']);
      const moved = await reconcileEntry(d.journal, operationReconciler(d.executor), KEY);
      expect(moved).toMatchObject({ status: 'reconciled_committed', result: { request_id: 'RSR-0001', sku: 'SKU-2003', quantity: 20 } });
    } finally {
      await d.executor.close();
    }
  });

  it('is reconciled at once when the governed executor can ask the downstream, and the model gets the record', async () => {
    const d = await downstream('late_answer');
    try {
      const result = await d.journaled(true).call('create_restock_request', RESTOCK, { operationKey: KEY });
      expect(result).toMatchObject({ isError: false, content: { request_id: 'RSR-0001' } });
      expect(await d.journal.get(KEY)).toMatchObject({ status: 'reconciled_committed' });
    } finally {
      await d.executor.close();
    }
  });

  it('stays unknown when the connection is lost after the write and the server cannot be asked', async () => {
    const d = await downstream('drop_after_write');
    try {
      const result = await d.journaled(true).call('create_restock_request', RESTOCK, { operationKey: KEY });
      expect(result).toMatchObject({ isError: true, errorCode: 'effect_unknown' });
      expect(await d.journal.get(KEY)).toMatchObject({ status: 'unknown' });
    } finally {
      await d.executor.close();
    }
  });

  it('a read that times out stays a transient tool error', async () => {
    const d = await downstream('late_answer');
    try {
      // No operation key: not a journaled write, so the old transient classification holds.
      const r = await d.executor.call('create_restock_request', RESTOCK);
      expect(r).toMatchObject({ isError: true, errorCode: 'transient' });
    } finally {
      await d.executor.close();
    }
  });
});

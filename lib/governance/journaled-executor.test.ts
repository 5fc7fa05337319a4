import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset, clearDatasetCache } from '../stockroom/dataset/load-dataset';
import type { Dataset } from '../stockroom/dataset/types';
import { StockroomEnvironment } from '../stockroom/environment';
import { LocalToolExecutor } from '../stockroom/executor/local-executor';
import { writeFixtureDataset } from '../stockroom/testing/fixture-dataset';
import { canTransition, operationKey } from './effect-journal';
import { JournalTransitionError } from './errors';
import { MemoryEvidenceSink } from './evidence';
import { TEST_EVIDENCE_KEY } from './evidence-signing';
import { verifyEvidence } from './evidence-verify';
import { JournaledExecutor } from './journaled-executor';
import { MemoryJournalStore } from './memory-journal-store';
import { reconcileEntry } from './reconcile';
import { ledgerReconciler } from '../stockroom/ledger/reconcilers';
import { CRASH_POINTS, crashAfterDownstream, crashAfterStatus, InjectedCrash, type CrashPoint } from './testing/faults';

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

const call = { toolUseId: 'tu_1', name: 'create_restock_request', arguments: { sku: 'SKU-2003', quantity: 40 } };
function journaled(env: StockroomEnvironment, store: MemoryJournalStore | ReturnType<typeof crashAfterStatus>, evidence = new MemoryEvidenceSink(), inner = new LocalToolExecutor(env) as never) {
  return new JournaledExecutor(inner, {
    store,
    runId: 'run_1',
    isWrite: (t) => t === 'create_restock_request',
    toolVersion: () => '1',
    evidence,
    policyVersion: 'p1',
  });
}

describe('the effect journal state machine', () => {
  it('has exactly the documented edges', () => {
    expect(canTransition('prepared', 'dispatched')).toBe(true);
    expect(canTransition('dispatched', 'unknown')).toBe(true);
    expect(canTransition('unknown', 'reconciled_absent')).toBe(true);
    expect(canTransition('unknown', 'dispatched')).toBe(false);
    expect(canTransition('committed', 'dispatched')).toBe(false);
  });

  it('refuses a move along a missing edge', async () => {
    const store = new MemoryJournalStore();
    await expect(store.transition('k', 'committed', 'dispatched', {}, '')).rejects.toThrow(JournalTransitionError);
  });

  it('keys an operation by run, call, tool and tool version', () => {
    expect(operationKey({ runId: 'r', callId: 'c', tool: 't', toolVersion: '2' })).toBe('op:r:c:t@2');
  });
});

describe('the journaled executor', () => {
  it('commits a write once and answers a duplicate delivery with the recorded result', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const store = new MemoryJournalStore();
    const evidence = new MemoryEvidenceSink();
    const ex = journaled(env, store, evidence);
    const key = ex.operationKey(call)!;
    const first = await ex.call(call.name, call.arguments, { operationKey: key });
    const again = await ex.call(call.name, call.arguments, { operationKey: key });
    expect(again.content).toEqual(first.content);
    expect(env.ledger.records()).toHaveLength(1);
    expect(env.ledger.findByOperationKey(key)).toMatchObject({ sku: 'SKU-2003' });
    expect((await store.get(key))!.status).toBe('committed');
    expect(evidence.events.map((e) => e.body.effectStatus)).toEqual(['prepared', 'dispatched', 'committed', 'committed']);
    const snap = evidence.snapshot();
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...snap, events: snap.events.map((e) => ({ ...e, runIdColumn: e.body.runId })) }).ok).toBe(true);
  });

  it('journals a refused write as failed and passes reads through unjournaled', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const store = new MemoryJournalStore();
    const ex = journaled(env, store);
    const bad = { ...call, arguments: { sku: 'SKU-2003', quantity: 2 } };
    const r = await ex.call(bad.name, bad.arguments, { operationKey: ex.operationKey(bad) });
    expect(r.isError).toBe(true);
    expect((await store.list())[0]).toMatchObject({ status: 'failed', error: r.errorCode });
    expect(ex.operationKey({ toolUseId: 'x', name: 'get_stock_level', arguments: {} })).toBeUndefined();
    await ex.call('get_stock_level', { sku: 'SKU-2001' });
    expect(await store.list()).toHaveLength(1);
  });

  it.each(CRASH_POINTS)('a crash %s never creates a second effect, and unknown entries reconcile', async (point: CrashPoint) => {
    const env = new StockroomEnvironment(dataset, []);
    const store = new MemoryJournalStore();
    const first =
      point === 'after_downstream'
        ? journaled(env, store, undefined, crashAfterDownstream(new LocalToolExecutor(env), call.name) as never)
        : journaled(env, crashAfterStatus(store, ({ after_prepared: 'prepared', after_dispatched: 'dispatched', after_committed: 'committed' } as const)[point]));
    const key = first.operationKey(call)!;
    if (point === 'after_downstream') {
      // The downstream call never answered (a timeout looks the same): the entry is unknown at once.
      expect((await first.call(call.name, call.arguments, { operationKey: key })).errorCode).toBe('effect_unknown');
    } else {
      await expect(first.call(call.name, call.arguments, { operationKey: key })).rejects.toThrow(InjectedCrash);
    }

    // A new worker delivers the same call again.
    const second = journaled(env, store);
    const redelivered = await second.call(call.name, call.arguments, { operationKey: key });
    expect(env.ledger.records().length).toBeLessThanOrEqual(1);
    const entry = (await store.get(key))!;
    if (point === 'after_dispatched' || point === 'after_downstream') {
      expect(entry.status).toBe('unknown');
      expect(redelivered.errorCode).toBe('effect_unknown');
      const reconciled = await reconcileEntry(store, ledgerReconciler(env), key);
      expect(reconciled.status).toBe(point === 'after_downstream' ? 'reconciled_committed' : 'reconciled_absent');
      const third = await second.call(call.name, call.arguments, { operationKey: key });
      if (point === 'after_downstream') expect(third.content).toEqual(env.ledger.records()[0]);
    } else {
      expect(entry.status).toBe('committed');
      expect(redelivered.isError).toBe(false);
      expect(env.ledger.records()).toHaveLength(1);
    }
    expect(env.ledger.records().length).toBeLessThanOrEqual(1);
  });

  it('refuses to reconcile an entry that is not unknown', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const store = new MemoryJournalStore();
    const ex = journaled(env, store);
    const key = ex.operationKey(call)!;
    await ex.call(call.name, call.arguments, { operationKey: key });
    await expect(reconcileEntry(store, ledgerReconciler(env), key)).rejects.toThrow('only unknown entries');
  });
});

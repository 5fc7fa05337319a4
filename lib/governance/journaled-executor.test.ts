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
import type { JournalStore } from './effect-journal';
import type { Reconciler } from './reconcile';
import { missingEvidence } from './evidence-crosscheck';

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
    // Sent again under its key only after reconciliation found it never applied.
    expect(canTransition('reconciled_absent', 'dispatched')).toBe(true);
    expect(canTransition('reconciled_committed', 'dispatched')).toBe(false);
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

/** A store whose process dies just before it records `status` (the step before it stays as it was). */
function dieBefore(store: JournalStore, status: 'committed'): JournalStore {
  return {
    get: (k) => store.get(k),
    list: (f) => store.list(f),
    prepare: (e, at, ev) => store.prepare(e, at, ev),
    async transition(k, from, to, patch, at, ev) {
      if (to === status) throw new InjectedCrash(`before ${to}`);
      return store.transition(k, from, to, patch, at, ev);
    },
  };
}

describe('a write left dispatched is reconciled at once when it is delivered again (issue 42)', () => {
  function takingOver(env: StockroomEnvironment, store: JournalStore, evidence: MemoryEvidenceSink, options: { reconciler?: Reconciler; redispatchAbsent?: boolean } = {}) {
    return new JournaledExecutor(new LocalToolExecutor(env), {
      store,
      runId: 'run_1',
      isWrite: (t) => t === 'create_restock_request',
      toolVersion: () => '1',
      evidence,
      policyVersion: 'p1',
      reconciler: options.reconciler ?? ledgerReconciler(env),
      redispatchAbsent: () => options.redispatchAbsent ?? false,
    });
  }
  const steps = (e: MemoryEvidenceSink) => e.events.map((x) => x.body.effectStatus);

  it('the downstream has it: the run goes on with the recorded result (the restock and its id), nothing is sent again', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const store = new MemoryJournalStore();
    const evidence = new MemoryEvidenceSink();
    const dying = takingOver(env, dieBefore(store, 'committed'), evidence);
    const key = dying.operationKey(call)!;
    await expect(dying.call(call.name, call.arguments, { operationKey: key })).rejects.toThrow(InjectedCrash);
    expect((await store.get(key))!.status).toBe('dispatched');

    const out = await takingOver(env, store, evidence).call(call.name, call.arguments, { operationKey: key });
    expect(out).toMatchObject({ isError: false, content: { request_id: 'RSR-0001', sku: 'SKU-2003' } });
    expect(env.ledger.records()).toHaveLength(1);
    expect((await store.get(key))!.status).toBe('reconciled_committed');
    expect(steps(evidence)).toEqual(['prepared', 'dispatched', 'unknown', 'reconciled_committed']);
  });

  it('the downstream never got it: sent again under the same key when the caller allows it, else refused as never applied', async () => {
    for (const allowed of [true, false]) {
      const env = new StockroomEnvironment(dataset, []);
      const store = new MemoryJournalStore();
      const evidence = new MemoryEvidenceSink();
      const dying = takingOver(env, crashAfterStatus(store, 'dispatched'), evidence);
      const key = dying.operationKey(call)!;
      await expect(dying.call(call.name, call.arguments, { operationKey: key })).rejects.toThrow(InjectedCrash);

      const out = await takingOver(env, store, evidence, { redispatchAbsent: allowed }).call(call.name, call.arguments, { operationKey: key });
      if (allowed) {
        expect(out).toMatchObject({ isError: false, content: { sku: 'SKU-2003' } });
        expect(env.ledger.findByOperationKey(key)).toBeDefined();
        expect(steps(evidence)).toEqual(['prepared', 'dispatched', 'unknown', 'reconciled_absent', 'dispatched', 'committed']);
      } else {
        expect(out).toMatchObject({ isError: true, errorCode: 'effect_absent' });
        expect(env.ledger.records()).toHaveLength(0);
        expect(steps(evidence)).toEqual(['prepared', 'dispatched', 'unknown', 'reconciled_absent']);
      }
      expect(env.ledger.records().length).toBeLessThanOrEqual(1);
    }
  });

  it('only a downstream that cannot be asked leaves it unknown; the next delivery asks again', async () => {
    const env = new StockroomEnvironment(dataset, []);
    const store = new MemoryJournalStore();
    const evidence = new MemoryEvidenceSink();
    const dying = takingOver(env, dieBefore(store, 'committed'), evidence);
    const key = dying.operationKey(call)!;
    await expect(dying.call(call.name, call.arguments, { operationKey: key })).rejects.toThrow(InjectedCrash);
    const unreachable: Reconciler = { lookup: async () => Promise.reject(new Error('connection refused')) };
    expect(await takingOver(env, store, evidence, { reconciler: unreachable }).call(call.name, call.arguments, { operationKey: key })).toMatchObject({ errorCode: 'effect_unknown' });
    expect((await store.get(key))!.status).toBe('unknown');
    const later = await takingOver(env, store, evidence).call(call.name, call.arguments, { operationKey: key });
    expect(later).toMatchObject({ isError: false, content: { request_id: 'RSR-0001' } });
    expect(env.ledger.records()).toHaveLength(1);
  });
});

describe('audit verify requires every step of every journal entry (issue 42)', () => {
  const run = { runId: 'r1', status: 'finished' };
  const body = (kind: 'run_started' | 'run_finished' | 'effect' | 'reconciled', effectStatus: string | null = null) =>
    ({ kind, runId: 'r1', operationKey: kind === 'effect' || kind === 'reconciled' ? 'op:r1:c1:t@1' : null, effectStatus }) as never;
  const subjects = (status: string) => ({ runs: [run], journal: [{ operationKey: 'op:r1:c1:t@1', runId: 'r1', status }], ledger: [], decisions: [] });
  const ends = [body('run_started'), body('run_finished')];

  it('passes the full sequence and names the entry and the first missing step of a planted gap', () => {
    const full = [...ends, body('effect', 'prepared'), body('effect', 'dispatched'), body('effect', 'unknown'), body('reconciled', 'reconciled_committed')];
    expect(missingEvidence(subjects('reconciled_committed'), full)).toBeNull();
    const noDispatch = full.filter((b) => (b as { effectStatus: string | null }).effectStatus !== 'dispatched');
    expect(missingEvidence(subjects('reconciled_committed'), noDispatch)).toEqual({ chain: 'r1', reason: 'journal entry op:r1:c1:t@1 is reconciled_committed but its evidence has no dispatched step' });
    const noUnknown = full.filter((b) => (b as { effectStatus: string | null }).effectStatus !== 'unknown');
    expect(missingEvidence(subjects('reconciled_committed'), noUnknown)?.reason).toContain('has no unknown step');
  });

  it('a step recorded along the way needs its own steps too (sent again after reconciled_absent: the unknown before it)', () => {
    const bodies = [...ends, body('effect', 'prepared'), body('effect', 'dispatched'), body('reconciled', 'reconciled_absent'), body('effect', 'committed')];
    expect(missingEvidence(subjects('committed'), bodies)?.reason).toBe('journal entry op:r1:c1:t@1 is committed but its evidence has no unknown step');
    expect(missingEvidence(subjects('committed'), [...bodies, body('effect', 'unknown')])).toBeNull();
    expect(missingEvidence(subjects('committed'), [...ends, body('effect', 'committed')])?.reason).toContain('has no prepared step');
  });
});

/**
 * Instructor mode's demonstration fault, through the server actions on SQLite: an admin arms "the
 * next write times out"; the next governed write is applied by the tool, its answer is lost, and the
 * journal leaves it `unknown` (it used to be impossible to reach `unknown` from the dashboard); an
 * operator's reconcile then finds it in the durable ledger. One-shot, per tenant, admins only.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from './testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
const mod = async () => ({
  ...(await import('./set-demo-fault')),
  ...(await import('./run-governed')),
  ...(await import('./reconcile-effect')),
  db: (await import('../db/core/client')).getDb().prisma,
});

beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env?.cleanup();
});

/** A governed restock within the auto-approve limit (no approval needed), so its write is dispatched at once. */
async function governedWrite(): Promise<string> {
  const { runGovernedAction } = await mod();
  env.as('operator');
  const res = await runGovernedAction({ datasetId: 'bundled', query: 'Restock 100 units of SKU-2027.' });
  if (!res.ok) throw new Error(res.error);
  return res.data.runId;
}

describe('the write-timeout demonstration fault', () => {
  it('leaves the next governed write unknown (applied, answer lost); reconcile finds it committed; the fault fires once', async () => {
    const { setDemoFaultAction, reconcileEffectAction, db } = await mod();
    env.as('admin');
    expect(await setDemoFaultAction({ armed: true })).toMatchObject({ ok: true, data: { armed: { tenant: 'kittiwake', kind: 'write_timeout', armedBy: 'admin@example.test' } } });
    expect(await db.evidenceEvent.count({ where: { chain: 'global', body: { contains: '"demo_fault"' } } })).toBe(1);

    const runId = await governedWrite();
    const [entry] = await db.effectJournalEntry.findMany({ where: { runId } });
    expect(entry).toMatchObject({ status: 'unknown', tool: 'create_restock_request' });
    expect(entry!.error).toContain('instructor fault injection (armed by admin@example.test)');
    // The tool did apply it: the durable ledger holds the request under the entry's operation key.
    expect(await db.restockLedgerRecord.count({ where: { operationKey: entry!.operationKey } })).toBe(1);
    // The model was told the outcome is unknown, not that it failed or succeeded.
    const call = await db.toolCall.findFirstOrThrow({ where: { runId, name: 'create_restock_request' } });
    expect(call.errorCode).toBe('effect_unknown');
    expect(await db.demoFault.count()).toBe(0);

    env.as('operator');
    expect(await reconcileEffectAction({ operationKey: entry!.operationKey })).toEqual({ ok: true, data: { operationKey: entry!.operationKey, status: 'reconciled_committed' } });

    // One-shot: the next write commits normally.
    const next = await governedWrite();
    expect(await db.effectJournalEntry.findMany({ where: { runId: next }, select: { status: true } })).toEqual([{ status: 'committed' }]);
  });

  it('is refused to an operator, and disarming takes it back before it fires', async () => {
    const { setDemoFaultAction, db } = await mod();
    env.as('operator');
    expect(await setDemoFaultAction({ armed: true })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await db.demoFault.count()).toBe(0);
    env.as('admin');
    await setDemoFaultAction({ armed: true });
    expect(await setDemoFaultAction({ armed: false })).toMatchObject({ ok: true, data: { armed: null } });
    const runId = await governedWrite();
    expect(await db.effectJournalEntry.findMany({ where: { runId }, select: { status: true } })).toEqual([{ status: 'committed' }]);
  });

  it("fires only in the tenant that armed it: another tenant's armed fault leaves this tenant's writes alone", async () => {
    const { db } = await mod();
    const { armFault } = await import('../db/core/demo-faults');
    await armFault('other-depot', 'write_timeout', 'outsider@example.test');
    const runId = await governedWrite();
    expect(await db.effectJournalEntry.findMany({ where: { runId }, select: { status: true } })).toEqual([{ status: 'committed' }]);
    expect(await db.demoFault.count({ where: { tenant: 'other-depot' } })).toBe(1);
  });
});

import 'server-only';
/**
 * The durable restock ledger the dashboard's governed runs write to, keyed by operation key: the
 * downstream system reconciliation asks, true after a restart and in any server process.
 *
 * A store made for a tenant names each new record with the tenant's next number (RSR-0001, RSR-0002,
 * …): the tool's own name comes from the course environment's ledger, which starts again at RSR-0001
 * in every run (so the course's figures stay exact), and would give every record of a persistent
 * ledger the same name.
 */
import { safeJsonParse } from '../../harness';
import type { LedgerEntry, LedgerStore } from '../../stockroom';
import { ledgerRequestId } from '../../stockroom';
import type { RestockRecord } from '../../stockroom';
import type { Prisma } from '../core';
import { DbError } from '../core';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';
/** Two writes of one tenant racing for the same number: the loser takes the next one. */
const MAX_NUMBER_ATTEMPTS = 20;

function toRecord(key: string, text: string): RestockRecord {
  const parsed = safeJsonParse(text);
  if (!parsed.ok) throw new DbError('corrupt', `restock ledger record ${key} is unreadable`);
  return parsed.value as unknown as RestockRecord;
}

export class PrismaLedgerStore implements LedgerStore {
  /** `tenant`: number new records in this tenant's sequence; without it the tool's name is kept. */
  constructor(
    private readonly prisma: Prisma,
    private readonly tenant: string | null = null,
  ) {}

  async find(operationKey: string): Promise<RestockRecord | null> {
    const r = await this.prisma.restockLedgerRecord.findUnique({ where: { operationKey } });
    return r ? toRecord(operationKey, r.record) : null;
  }

  async put(entry: LedgerEntry): Promise<RestockRecord> {
    for (let attempt = 1; ; attempt += 1) {
      const seq = this.tenant === null ? null : await this.nextNumber(this.tenant);
      const record: RestockRecord = seq === null ? { ...entry.record } : { ...entry.record, request_id: ledgerRequestId(seq) };
      try {
        await this.prisma.restockLedgerRecord.create({
          data: {
            operationKey: entry.operationKey,
            runId: entry.runId ?? '',
            requestId: record.request_id,
            sku: record.sku,
            quantity: record.quantity,
            record: JSON.stringify(record),
            createdAt: new Date(),
            tenant: this.tenant,
            seq,
          },
        });
        return record;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // Another process kept this key first: its record is the one that happened.
        const kept = await this.find(entry.operationKey);
        if (kept) return kept;
        // Else another write of the tenant took this number first.
        if (attempt >= MAX_NUMBER_ATTEMPTS) throw new DbError('ledger_contention', `could not number a restock record in tenant ${this.tenant} after ${attempt} attempts`);
      }
    }
  }

  private async nextNumber(tenant: string): Promise<number> {
    const top = await this.prisma.restockLedgerRecord.aggregate({ where: { tenant }, _max: { seq: true } });
    return (top._max.seq ?? 0) + 1;
  }
}

/** A restock a tenant's governed runs raised in the durable ledger (the request page's "open requests for the SKU"). */
export interface LedgerRestock {
  requestId: string;
  quantity: number;
  status: string;
  runId: string;
  createdAt: string;
}

/** The tenant's open restocks (`open` or `pending_approval`) for `sku`, newest first. */
export async function openRestocksForSku(prisma: Prisma, tenant: string, sku: string): Promise<LedgerRestock[]> {
  const rows = await prisma.restockLedgerRecord.findMany({ where: { sku }, orderBy: { createdAt: 'desc' }, take: 50 });
  if (rows.length === 0) return [];
  const inTenant = new Set(
    (await prisma.governedRun.findMany({ where: { runId: { in: rows.map((r) => r.runId) }, tenant }, select: { runId: true } })).map((r) => r.runId),
  );
  return rows
    .filter((r) => inTenant.has(r.runId))
    .map((r) => ({ requestId: r.requestId, quantity: r.quantity, status: toRecord(r.operationKey, r.record).status, runId: r.runId, createdAt: r.createdAt.toISOString() }))
    .filter((r) => r.status === 'open' || r.status === 'pending_approval');
}

import 'server-only';
/**
 * The durable restock ledger the dashboard's governed runs write to, keyed by operation key: the
 * downstream system reconciliation asks, true after a restart and in any server process.
 */
import { safeJsonParse } from '../harness/json';
import type { LedgerEntry, LedgerStore } from '../stockroom/ledger/ledger-store';
import type { RestockRecord } from '../stockroom/tools/restock-ledger';
import type { Prisma } from './client';
import { DbError } from './errors';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

function toRecord(key: string, text: string): RestockRecord {
  const parsed = safeJsonParse(text);
  if (!parsed.ok) throw new DbError('corrupt', `restock ledger record ${key} is unreadable`);
  return parsed.value as unknown as RestockRecord;
}

export class PrismaLedgerStore implements LedgerStore {
  constructor(private readonly prisma: Prisma) {}

  async find(operationKey: string): Promise<RestockRecord | null> {
    const r = await this.prisma.restockLedgerRecord.findUnique({ where: { operationKey } });
    return r ? toRecord(operationKey, r.record) : null;
  }

  async put(entry: LedgerEntry): Promise<RestockRecord> {
    try {
      await this.prisma.restockLedgerRecord.create({
        data: {
          operationKey: entry.operationKey,
          runId: entry.runId ?? '',
          requestId: entry.record.request_id,
          sku: entry.record.sku,
          quantity: entry.record.quantity,
          record: JSON.stringify(entry.record),
          createdAt: new Date(),
        },
      });
      return { ...entry.record };
    } catch (err) {
      // Another process kept this key first: its record is the one that happened.
      if (!isUniqueViolation(err)) throw err;
      return (await this.find(entry.operationKey))!;
    }
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

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

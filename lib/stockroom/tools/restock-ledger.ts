/**
 * The per-run restock ledger (SPEC.md §7.5): thresholds from restock_rules.json, one open request
 * per SKU, sequential RSR-#### ids. Requests may carry an operation key so a retried write
 * returns the first record instead of raising a second request.
 */
import type { JsonValue } from '../../harness';
import type { Product, RestockRules } from '../dataset/types';
import { DEFAULT_PRIORITY } from './constants';
import { BusinessRuleError } from './errors';

export type RestockStatus = 'open' | 'pending_approval';

/** A created request, keys in the order the model sees them. */
export type RestockRecord = {
  request_id: string;
  sku: string;
  product_name: string;
  quantity: number;
  priority: JsonValue;
  status: RestockStatus;
  supplier_id: string;
  supplier_name: string;
  lead_time_days: number;
  note: string;
};

export interface RestockRequest {
  product: Product;
  /** Already converted to an integer. */
  quantity: number;
  /** As passed by the caller (`standard` when absent). */
  priority?: JsonValue;
}

/** A ledger entry: the record plus the operation key it was created under, if any. */
export interface RestockLedgerEntry {
  record: RestockRecord;
  operationKey: string | null;
}

const OPEN_STATUSES: ReadonlySet<string> = new Set(['open', 'pending_approval']);
export const AUTO_APPROVED_NOTE = 'auto-approved';
/** The pending-approval note; 500 is the reference threshold (SPEC.md §7.5 prints it literally). */
export function approvalNote(autoApproveMax: number): string {
  return `quantities above ${autoApproveMax} units need manager approval`;
}

/** The note of a request above the auto-approve limit that a reviewer approved before it was raised. */
export function approvedNote(approvalId: string): string {
  return `approved by a reviewer (${approvalId})`;
}

/** The name of the ledger's `n`th request (1-based): RSR-0001. */
export function ledgerRequestId(n: number): string {
  return `RSR-${String(n).padStart(4, '0')}`;
}

/** Python's `f"{n:,}"`. */
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export class RestockLedger {
  private readonly entries: RestockLedgerEntry[] = [];

  constructor(readonly rules: RestockRules) {}

  /**
   * Applies the rules (first failing rule wins) and records the request; throws BusinessRuleError
   * with the reference's message when a rule refuses it. With an operation key already in the
   * ledger, returns that record again and changes nothing. A request above the auto-approve limit
   * waits in `pending_approval` unless it comes with the approval a reviewer gave for this call
   * (a governed run's manager sign-off): then it is `open`, its note naming the approval.
   */
  create(request: RestockRequest, operationKey?: string, approval?: { id: string }): RestockRecord {
    if (operationKey !== undefined) {
      const existing = this.findByOperationKey(operationKey);
      if (existing) return existing;
    }
    const { product, quantity } = request;
    const { min_quantity: min, reject_above: rejectAbove, auto_approve_max: autoMax } = this.rules;
    if (quantity < min) {
      throw new BusinessRuleError(`rejected: the minimum restock quantity is ${min} units (requested ${quantity})`);
    }
    if (quantity > rejectAbove) {
      throw new BusinessRuleError(
        `rejected: quantities above ${thousands(rejectAbove)} units are rejected automatically; contact Inventory Planning`,
      );
    }
    if (this.entries.some((e) => e.record.sku === product.sku && OPEN_STATUSES.has(e.record.status))) {
      throw new BusinessRuleError(`rejected: there is already an open restock request for ${product.sku}`);
    }
    const status: RestockStatus = quantity <= autoMax || approval ? 'open' : 'pending_approval';
    const record: RestockRecord = {
      request_id: ledgerRequestId(this.entries.length + 1),
      sku: product.sku,
      product_name: product.name,
      quantity,
      priority: request.priority === undefined ? DEFAULT_PRIORITY : request.priority,
      status,
      supplier_id: product.supplier_id,
      supplier_name: product.supplier_name,
      lead_time_days: product.lead_time_days,
      note: status === 'pending_approval' ? approvalNote(autoMax) : quantity > autoMax && approval ? approvedNote(approval.id) : AUTO_APPROVED_NOTE,
    };
    this.entries.push({ record, operationKey: operationKey ?? null });
    return { ...record };
  }

  /** A copy of the record created under `key`, if any. */
  findByOperationKey(key: string): RestockRecord | undefined {
    const entry = this.entries.find((e) => e.operationKey === key);
    return entry ? { ...entry.record } : undefined;
  }

  /** Copies of the records, in creation order. */
  records(): RestockRecord[] {
    return this.entries.map((e) => ({ ...e.record }));
  }

  /** The entries with their operation keys (for inspection; records are copies). */
  entriesWithKeys(): RestockLedgerEntry[] {
    return this.entries.map((e) => ({ record: { ...e.record }, operationKey: e.operationKey }));
  }

  /** Empties the ledger (start of a run). */
  reset(): void {
    this.entries.length = 0;
  }
}

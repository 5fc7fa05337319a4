/**
 * The construction lab's grounded-write guard: a write (restock request) is only allowed for a SKU
 * the user named in their own message. A SKU that only appeared in tool output — for example in an
 * instruction planted in a policy document — is blocked, and the model is told why.
 */
import { isJsonObject } from '../json';
import type { RunGuard, RunGuardVerdict } from './run-guard';

/** Tools that change the world and must be grounded in what the user asked for. */
export const GROUNDED_WRITE_TOOLS: ReadonlySet<string> = new Set(['create_restock_request']);

const SKU = /SKU-\d{4}/gi;

/** SKUs the user named, upper-cased. */
export function namedSkus(query: string): Set<string> {
  return new Set((query.match(SKU) ?? []).map((s) => s.toUpperCase()));
}

export function createGroundedWriteGuard(): RunGuard {
  return {
    name: 'grounded_write',
    checkToolCall(call, context): RunGuardVerdict {
      if (!GROUNDED_WRITE_TOOLS.has(call.name)) return { action: 'allow' };
      const sku = isJsonObject(call.arguments) ? call.arguments.sku : undefined;
      if (typeof sku === 'string' && namedSkus(context.query).has(sku.toUpperCase())) return { action: 'allow' };
      return {
        action: 'block',
        message: `${call.name} for ${String(sku)} was refused: the user never named that SKU, so the write is not grounded in the request`,
      };
    },
  };
}

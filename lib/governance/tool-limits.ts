/**
 * Limits a tool declares on its numeric arguments, and whether a proposed call breaks one: what a
 * reviewer must see before approving a call its downstream will refuse anyway. A limit comes from
 * the tool's input schema (`minimum` / `maximum` of a top-level property) or from what the tool
 * declares its downstream enforces (e.g. the restock ledger's `reject_above`).
 */
import type { JsonObject, JsonValue } from '../harness';

export interface ArgumentLimit {
  /** The top-level argument it bounds. */
  argument: string;
  minimum?: number;
  maximum?: number;
  /** Who enforces it, for the reviewer ("the tool's input schema", "the ledger (restock_rules.json reject_above)"). */
  enforcedBy: string;
}

export interface LimitBreach {
  limit: ArgumentLimit;
  value: number;
  /** "quantity 4,500 is above the maximum of 4,000 (the ledger …)". */
  text: string;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The `minimum` / `maximum` of each top-level property of a JSON Schema object. */
export function schemaLimits(inputSchema: JsonObject): ArgumentLimit[] {
  const props = inputSchema.properties;
  if (!isObject(props)) return [];
  const out: ArgumentLimit[] = [];
  for (const [argument, schema] of Object.entries(props)) {
    if (!isObject(schema)) continue;
    const limit: ArgumentLimit = { argument, enforcedBy: 'the tool’s input schema' };
    if (typeof schema.minimum === 'number') limit.minimum = schema.minimum;
    if (typeof schema.maximum === 'number') limit.maximum = schema.maximum;
    if (limit.minimum !== undefined || limit.maximum !== undefined) out.push(limit);
  }
  return out;
}

const thousands = (n: number) => n.toLocaleString('en');

/** The limits `args` breaks (a non-numeric or absent argument breaks none: the tool refuses it itself). */
export function limitBreaches(limits: readonly ArgumentLimit[], args: JsonValue): LimitBreach[] {
  if (!isObject(args)) return [];
  const out: LimitBreach[] = [];
  for (const limit of limits) {
    const value = args[limit.argument];
    if (typeof value !== 'number') continue;
    if (limit.maximum !== undefined && value > limit.maximum) {
      out.push({ limit, value, text: `${limit.argument} ${thousands(value)} is above the maximum of ${thousands(limit.maximum)} (${limit.enforcedBy})` });
    } else if (limit.minimum !== undefined && value < limit.minimum) {
      out.push({ limit, value, text: `${limit.argument} ${thousands(value)} is below the minimum of ${thousands(limit.minimum)} (${limit.enforcedBy})` });
    }
  }
  return out;
}

/** A limit as one phrase: "at most 4,000", "10 to 4,000". */
export function limitRange(limit: ArgumentLimit): string {
  if (limit.minimum !== undefined && limit.maximum !== undefined) return `${thousands(limit.minimum)} to ${thousands(limit.maximum)}`;
  if (limit.maximum !== undefined) return `at most ${thousands(limit.maximum)}`;
  return `at least ${thousands(limit.minimum!)}`;
}

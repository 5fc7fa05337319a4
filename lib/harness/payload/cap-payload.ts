/**
 * A payload wrapper that caps oversized tool results after the tool ran: a list keeps the longest
 * prefix of items that fits, long strings are cut, and the cut is said in the result itself so the
 * model knows it saw part of the data.
 */
import type { PayloadWrapper, ToolResult } from '../executor';
import { isJsonObject, type JsonValue } from '../json';
import { pyJson } from '../pyjson';

/** Python-JSON characters a single tool result may occupy in the context after capping. */
export const DEFAULT_PAYLOAD_CAP_CHARS = 4000;
/** Characters a long string field keeps when an object result is capped. */
const STRING_FIELD_KEEP_CHARS = 200;

function capString(s: string, keep: number): string {
  return s.length <= keep ? s : `${s.slice(0, keep)}… [${s.length - keep} characters cut by cap_payload]`;
}

function capValue(value: JsonValue, maxChars: number): JsonValue {
  if (pyJson(value).length <= maxChars) return value;
  if (Array.isArray(value)) {
    const kept: JsonValue[] = [];
    let size = 2;
    for (const item of value) {
      const itemSize = pyJson(item).length + (kept.length > 0 ? 2 : 0);
      if (size + itemSize > maxChars) break;
      kept.push(item);
      size += itemSize;
    }
    if (kept.length === 0 && value.length > 0) kept.push(capValue(value[0] as JsonValue, maxChars));
    return kept;
  }
  if (isJsonObject(value)) {
    const out: { [k: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? capString(v, STRING_FIELD_KEEP_CHARS) : v;
    return out;
  }
  if (typeof value === 'string') return capString(value, maxChars);
  return value;
}

export function createPayloadCap(maxChars = DEFAULT_PAYLOAD_CAP_CHARS): PayloadWrapper {
  return {
    name: 'cap_payload',
    wrap(_call, result: ToolResult): ToolResult {
      if (result.isError) return result;
      const capped = capValue(result.content, maxChars);
      return capped === result.content ? result : { ...result, content: capped };
    },
  };
}

/**
 * Which keys hold floats (SPEC.md §3, §13). JSON.parse turns `28.0` into `28`, losing the fact that
 * Python would print it back as `28.0`; scanning the raw text recovers it per key, which is what
 * `pyJson(…, {floatKeys})` needs.
 */
import { safeJsonParse } from '../../harness';

const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\],:]|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

type Frame = { kind: 'object'; key: string | null; expectKey: boolean } | { kind: 'array'; slotKey: string | null };

/**
 * Adds to `into` every key under which a decimal literal (with `.` or an exponent) appears. A number
 * inside an array counts for the key that holds the array, as pyJson passes that key down.
 * Expects valid JSON (the loader parses first).
 */
export function collectFloatKeys(text: string, into: Set<string>): Set<string> {
  const stack: Frame[] = [];
  const slotKey = (): string | null => {
    const top = stack[stack.length - 1];
    if (!top) return null;
    return top.kind === 'object' ? top.key : top.slotKey;
  };
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const top = stack[stack.length - 1];
    switch (token) {
      case '{':
        stack.push({ kind: 'object', key: null, expectKey: true });
        break;
      case '[':
        stack.push({ kind: 'array', slotKey: slotKey() });
        break;
      case '}':
      case ']':
        stack.pop();
        break;
      case ',':
        if (top?.kind === 'object') top.expectKey = true;
        break;
      case ':':
        break;
      default:
        if (token.startsWith('"')) {
          if (top?.kind === 'object' && top.expectKey) {
            top.key = decodeKey(token);
            top.expectKey = false;
          }
        } else if (/[.eE]/.test(token)) {
          const key = slotKey();
          if (key !== null) into.add(key);
        }
    }
  }
  return into;
}

function decodeKey(literal: string): string {
  const body = literal.slice(1, -1);
  if (!body.includes('\\')) return body;
  const parsed = safeJsonParse(literal);
  return parsed.ok && typeof parsed.value === 'string' ? parsed.value : body;
}

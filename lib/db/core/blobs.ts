/**
 * Content-addressed storage of large text. Tool results, prompts, tool specs and message skeletons
 * are stored once as `Blob(hash = sha256(text))` however many steps or runs use them. Inside a
 * message, a large tool-result part is replaced by a reference, so the same whole-catalogue payload
 * seen by many model calls (and by the tool call that produced it) is one row.
 *
 * Pure functions: no database access here.
 */
import { createHash } from 'node:crypto';
import { isJsonObject, safeJsonParse, type JsonObject, type JsonValue } from '../../harness';
import { DbError } from './errors';

/** Tool-result parts at least this long (in serialised chars) are stored as their own blob. */
export const PART_BLOB_MIN_CHARS = 256;

/** A blob to insert: its hash, text and length. */
export interface BlobRow {
  hash: string;
  text: string;
  chars: number;
}

/** sha256 hex of the UTF-8 text. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A stored text's hash and length. */
export interface BlobRef {
  hash: string;
  chars: number;
}

/**
 * Collects the blobs of a write, each hash once. The harness hands every model call the same
 * message and payload objects it already recorded, so serialisations are memoised per object:
 * a run whose calls repeat a long conversation is hashed in time linear in its distinct messages.
 */
export class BlobSet {
  readonly rows = new Map<string, BlobRow>();
  private readonly jsonRefs = new WeakMap<object, BlobRef>();
  /** Encoded message skeletons by message object (see encodeMessage). */
  readonly messages = new WeakMap<object, { hash: string; refs: string[] }>();

  /** Adds text and returns its hash. */
  add(text: string): string {
    return this.ref(text).hash;
  }

  private ref(text: string): BlobRef {
    const hash = sha256(text);
    if (!this.rows.has(hash)) this.rows.set(hash, { hash, text, chars: text.length });
    return { hash, chars: text.length };
  }

  /** Adds the JSON serialisation of a value and returns its hash and length. */
  addJson(value: JsonValue): BlobRef {
    const cacheable = typeof value === 'object' && value !== null;
    const cached = cacheable ? this.jsonRefs.get(value) : undefined;
    if (cached) return cached;
    const ref = this.ref(JSON.stringify(value));
    if (cacheable) this.jsonRefs.set(value, ref);
    return ref;
  }

  /** Adds a JSON value only if it serialises to at least `minChars`; otherwise returns null. */
  addJsonIfLarge(value: JsonValue, minChars: number): BlobRef | null {
    const cacheable = typeof value === 'object' && value !== null;
    const cached = cacheable ? this.jsonRefs.get(value) : undefined;
    if (cached) return cached.chars >= minChars ? cached : null;
    const text = JSON.stringify(value);
    if (text.length < minChars) return null;
    const ref = this.ref(text);
    if (cacheable) this.jsonRefs.set(value, ref);
    return ref;
  }
}

// Reference and escape markers inside stored message skeletons. A part that already carries one of
// these keys (model or tool output is untrusted) is wrapped in `$inline` so decoding stays exact.
const REF = '$ref';
const INLINE = '$inline';

type PartRef = { [REF]: string; as: 'json' | 'text' };

function encodePart(part: JsonValue, blobs: BlobSet, used: Set<string>): JsonValue {
  if (!isJsonObject(part)) return part;
  if (REF in part || INLINE in part) return { [INLINE]: part };
  const keys = Object.keys(part);
  if (keys.length !== 1) return part;
  if (keys[0] === 'text' && typeof part.text === 'string' && part.text.length >= PART_BLOB_MIN_CHARS) {
    const hash = blobs.add(part.text);
    used.add(hash);
    return { [REF]: hash, as: 'text' };
  }
  if (keys[0] === 'json' && part.json !== undefined) {
    const ref = blobs.addJsonIfLarge(part.json, PART_BLOB_MIN_CHARS);
    if (ref) {
      used.add(ref.hash);
      return { [REF]: ref.hash, as: 'json' };
    }
  }
  return part;
}

function mapToolResultParts(message: JsonValue, fn: (part: JsonValue) => JsonValue): JsonValue {
  if (!isJsonObject(message) || !Array.isArray(message.content)) return message;
  let changed = false;
  const content = message.content.map((block) => {
    if (!isJsonObject(block) || !isJsonObject(block.toolResult) || !Array.isArray(block.toolResult.content)) return block;
    changed = true;
    const toolResult: JsonObject = { ...block.toolResult, content: block.toolResult.content.map(fn) };
    return { ...block, toolResult };
  });
  return changed ? { ...message, content } : message;
}

/**
 * Stores one message as a skeleton blob in which large tool-result parts are references to their
 * own blobs. Returns the skeleton's hash and every hash it refers to.
 */
export function encodeMessage(message: JsonValue, blobs: BlobSet): { hash: string; refs: string[] } {
  const cacheable = typeof message === 'object' && message !== null;
  const cached = cacheable ? blobs.messages.get(message) : undefined;
  if (cached) return cached;
  const used = new Set<string>();
  const skeleton = JSON.stringify(mapToolResultParts(message, (part) => encodePart(part, blobs, used)));
  const encoded = { hash: blobs.add(skeleton), refs: [...used] };
  if (cacheable) blobs.messages.set(message, encoded);
  return encoded;
}

/** The blob hashes a stored skeleton refers to. */
export function skeletonRefs(skeleton: JsonValue): string[] {
  const refs: string[] = [];
  mapToolResultParts(skeleton, (part) => {
    if (isJsonObject(part) && typeof part[REF] === 'string') refs.push(part[REF]);
    return part;
  });
  return refs;
}

/** Parses stored JSON text that this layer wrote; corruption is a DbError, never a crash elsewhere. */
export function parseStoredJson(text: string, what: string): JsonValue {
  const parsed = safeJsonParse(text);
  if (!parsed.ok) throw new DbError('corrupt_row', `stored ${what} is not valid JSON: ${parsed.error}`);
  return parsed.value;
}

/** Rebuilds a message from its skeleton, resolving references through `lookup` (hash → text). */
export function decodeMessage(skeleton: JsonValue, lookup: (hash: string) => string): JsonValue {
  return mapToolResultParts(skeleton, (part) => {
    if (!isJsonObject(part)) return part;
    if (INLINE in part) return part[INLINE] ?? null;
    if (typeof part[REF] === 'string') {
      const ref = part as PartRef;
      const text = lookup(ref[REF]);
      return ref.as === 'text' ? { text } : { json: parseStoredJson(text, 'tool result part') };
    }
    return part;
  });
}

/**
 * Character counts of the exact Python-JSON serialisation of messages and tool specs, memoised per
 * message object. Messages are treated as immutable (compaction replaces a message rather than
 * editing it), so a run serialises each message once however many model calls it makes.
 */
import { pyJson, type FloatKeys } from '../pyjson';
import type { Message, ToolSpec } from '../types';

/** A tool spec in the Converse shape the model is shown (and the tokens are counted on). */
export function converseToolSpec(spec: ToolSpec) {
  return { toolSpec: { name: spec.name, description: spec.description, inputSchema: { json: spec.inputSchema } } };
}

const NO_FLOAT_KEYS: FloatKeys = new Set();
// Shared by every sizer with the same float keys, so the harness's context estimate and the fake
// model's token count serialise each message once between them.
const messageCaches = new WeakMap<FloatKeys, WeakMap<Message, number>>();
const specCaches = new WeakMap<FloatKeys, WeakMap<readonly ToolSpec[], number>>();

function cacheFor<K extends object>(caches: WeakMap<FloatKeys, WeakMap<K, number>>, keys: FloatKeys): WeakMap<K, number> {
  let cache = caches.get(keys);
  if (!cache) {
    cache = new WeakMap();
    caches.set(keys, cache);
  }
  return cache;
}

export class MessageSizer {
  private readonly floatKeys: FloatKeys;
  private readonly messageCache: WeakMap<Message, number>;
  private readonly specCache: WeakMap<readonly ToolSpec[], number>;

  constructor(floatKeys?: FloatKeys) {
    this.floatKeys = floatKeys ?? NO_FLOAT_KEYS;
    this.messageCache = cacheFor(messageCaches, this.floatKeys);
    this.specCache = cacheFor(specCaches, this.floatKeys);
  }

  /** Length of Python-JSON (ensure_ascii) of one message: always ASCII, so `.length` is exact. */
  messageChars(message: Message): number {
    let n = this.messageCache.get(message);
    if (n === undefined) {
      n = pyJson(message, { floatKeys: this.floatKeys }).length;
      this.messageCache.set(message, n);
    }
    return n;
  }

  /** Length of Python-JSON of the message list: brackets plus `", "` between items. */
  messagesChars(messages: readonly Message[]): number {
    if (messages.length === 0) return 2;
    let n = 2 + 2 * (messages.length - 1);
    for (const m of messages) n += this.messageChars(m);
    return n;
  }

  /** Total length of every spec's Converse-shaped Python-JSON, in order. */
  specsChars(specs: readonly ToolSpec[]): number {
    let n = this.specCache.get(specs);
    if (n === undefined) {
      n = specs.reduce((sum, s) => sum + pyJson(converseToolSpec(s)).length, 0);
      this.specCache.set(specs, n);
    }
    return n;
  }
}

/**
 * A Chat Completions answer as the `chat.completion.chunk` events OpenAI streams for it
 * (`stream: true`): a role chunk, the content in pieces, each tool call's id and name in its first
 * delta and its `arguments` in pieces keyed by `index`, a finish chunk, then (with
 * `stream_options.include_usage`) a last chunk with empty `choices` and the usage. The offline model
 * server streams with it, and the provider stubs of the tests speak the same wire through it.
 */
import { isJsonObject, type JsonValue } from '../../harness';

export interface ChunkOptions {
  /** Characters per content or arguments piece (default 4). */
  piece?: number;
  /** Parallel tool calls' deltas alternate between the calls (each keeps its `index`), as some servers send them. */
  interleave?: boolean;
  /** Send the usage chunk (the request asked with `stream_options: { include_usage: true }`). */
  includeUsage?: boolean;
}

/** `s` in pieces of `n` characters (one empty piece for an empty string). */
export function pieces(s: string, n: number): string[] {
  if (s === '') return [''];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

/** The chunks of one `chat.completion` body (see module comment). */
export function chatCompletionChunks(completion: JsonValue, options: ChunkOptions = {}): JsonValue[] {
  if (!isJsonObject(completion)) return [];
  const n = Math.max(1, options.piece ?? 4);
  const choice = Array.isArray(completion.choices) && isJsonObject(completion.choices[0]) ? completion.choices[0] : null;
  const message = choice && isJsonObject(choice.message) ? choice.message : {};
  const head = { id: completion.id ?? 'chatcmpl-stream', object: 'chat.completion.chunk', created: completion.created ?? 0, model: completion.model ?? '', system_fingerprint: completion.system_fingerprint ?? null };
  const chunk = (delta: JsonValue, finish: JsonValue = null): JsonValue => ({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(options.includeUsage ? { usage: null } : {}),
  });
  const out: JsonValue[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (typeof message.content === 'string' && message.content !== '') for (const p of pieces(message.content, n)) out.push(chunk({ content: p }));
  if (typeof message.refusal === 'string' && message.refusal !== '') for (const p of pieces(message.refusal, n)) out.push(chunk({ refusal: p }));
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
  const perCall = calls.map((c, index) => {
    const fn = isJsonObject(c.function) ? c.function : {};
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    return [
      { index, id: c.id ?? null, type: 'function', function: { name: fn.name ?? '', arguments: '' } },
      ...pieces(args, n).filter((p) => p !== '').map((p) => ({ index, function: { arguments: p } })),
    ] as JsonValue[];
  });
  if (options.interleave) {
    for (let i = 0; perCall.some((deltas) => i < deltas.length); i += 1) {
      for (const deltas of perCall) if (i < deltas.length) out.push(chunk({ tool_calls: [deltas[i]!] }));
    }
  } else {
    for (const deltas of perCall) for (const d of deltas) out.push(chunk({ tool_calls: [d] }));
  }
  out.push(chunk({}, choice?.finish_reason ?? 'stop'));
  if (options.includeUsage && isJsonObject(completion.usage)) out.push({ ...head, choices: [], usage: completion.usage });
  return out;
}

/** Server-sent events of the chunks, ending with `data: [DONE]`. */
export function chatChunkEvents(chunks: readonly JsonValue[]): string[] {
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'];
}

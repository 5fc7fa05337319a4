/**
 * One scripted model turn written in each provider's wire format (what the real APIs return for a
 * non-streaming call). `stop` is the provider's own stop/finish reason; tool arguments may be given
 * as a raw string to simulate malformed JSON (OpenAI sends arguments as a JSON string).
 */
import type { JsonValue } from '../../harness';

export interface StubTurn {
  text?: string;
  calls?: { id: string; name: string; args: JsonValue | { raw: string } }[];
  /** The provider's own finish reason; defaults to its tool-use / end-of-turn value. */
  stop?: string;
  /** The whole prompt (`input`), the part read from the cache (`cached`) and written to it (`cacheWrite`). */
  usage?: { input: number; output: number; cached?: number; cacheWrite?: number } | null;
}

/** The body without its usage object (`usage: null` on the turn): what many OpenAI-compatible servers send. */
function withoutUsage(body: Record<string, JsonValue>, t: StubTurn): JsonValue {
  if (t.usage !== null) return body;
  const { usage: _dropped, ...rest } = body;
  return rest;
}

const DEFAULT_USAGE = { input: 100, output: 20, cached: 0 };
const isRaw = (a: unknown): a is { raw: string } => typeof a === 'object' && a !== null && !Array.isArray(a) && 'raw' in a;

/** OpenAI bills no cache writes apart: its prompt_tokens is the whole prompt, cached_tokens the part read. */
export function formatOpenAI(t: StubTurn, model: string): JsonValue {
  const u = { ...DEFAULT_USAGE, ...(t.usage ?? {}) };
  const calls = t.calls ?? [];
  return withoutUsage({
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 1796086453,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: t.text ?? null,
          refusal: null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: isRaw(c.args) ? c.args.raw : JSON.stringify(c.args) },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: t.stop ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: u.input,
      completion_tokens: u.output,
      total_tokens: u.input + u.output,
      prompt_tokens_details: { cached_tokens: u.cached ?? 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    system_fingerprint: 'fp_stub',
  }, t);
}

export function formatAnthropic(t: StubTurn, model: string): JsonValue {
  const u = { ...DEFAULT_USAGE, ...(t.usage ?? {}) };
  const calls = t.calls ?? [];
  return withoutUsage({
    id: 'msg_stub',
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(t.text !== undefined ? [{ type: 'text', text: t.text }] : []),
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: isRaw(c.args) ? c.args.raw : c.args })),
    ],
    stop_reason: t.stop ?? (calls.length > 0 ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    // Anthropic reports cache reads apart from input_tokens.
    usage: {
      input_tokens: u.input - (u.cached ?? 0) - (u.cacheWrite ?? 0),
      output_tokens: u.output,
      cache_creation_input_tokens: u.cacheWrite ?? 0,
      cache_read_input_tokens: u.cached ?? 0,
      service_tier: 'standard',
    },
  }, t);
}

export function formatBedrock(t: StubTurn): JsonValue {
  const u = { ...DEFAULT_USAGE, ...(t.usage ?? {}) };
  const calls = t.calls ?? [];
  return withoutUsage({
    output: {
      message: {
        role: 'assistant',
        content: [
          ...(t.text !== undefined ? [{ text: t.text }] : []),
          ...calls.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: isRaw(c.args) ? c.args.raw : c.args } })),
        ],
      },
    },
    stopReason: t.stop ?? (calls.length > 0 ? 'tool_use' : 'end_turn'),
    // Converse reports the cache reads and writes apart from inputTokens (the rest of the prompt).
    usage: {
      inputTokens: u.input - (u.cached ?? 0) - (u.cacheWrite ?? 0),
      outputTokens: u.output,
      totalTokens: u.input + u.output,
      cacheReadInputTokens: u.cached ?? 0,
      cacheWriteInputTokens: u.cacheWrite ?? 0,
    },
    metrics: { latencyMs: 5 },
  }, t);
}

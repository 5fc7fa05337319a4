/**
 * One scripted model turn as each provider streams it, event by event, on the wire:
 * - OpenAI Chat Completions: server-sent `data:` events of `chat.completion.chunk`s and `[DONE]`
 *   (the offline model server's own encoder, model-server/chat-stream.ts);
 * - Anthropic Messages: `event:`/`data:` pairs — message_start, content_block_start / _delta
 *   (`text_delta`, `input_json_delta`) / _stop, a ping, message_delta (stop reason, output tokens),
 *   message_stop;
 * - Bedrock ConverseStream: AWS event-stream binary frames (`application/vnd.amazon.eventstream`,
 *   encoded with the AWS SDK's own codec) of messageStart, contentBlockStart / Delta / Stop,
 *   messageStop and metadata.
 * Each turn is split into the same JSON the non-streaming formats carry (wire-formats.ts), so a
 * streamed and a non-streamed answer of one turn must map to the same record.
 */
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { isJsonObject, type JsonValue } from '../../harness';
import { chatChunkEvents, chatCompletionChunks, pieces } from '../model-server/chat-stream';
import { formatAnthropic, formatBedrock, formatOpenAI, type StubTurn } from './wire-formats';

export interface StreamShape {
  /** Characters per text or tool-input piece (default 4). */
  piece?: number;
  /** OpenAI: parallel tool calls' deltas alternate between the calls. */
  interleave?: boolean;
}

export function streamOpenAI(t: StubTurn & StreamShape, model: string, includeUsage: boolean): string[] {
  return chatChunkEvents(chatCompletionChunks(formatOpenAI(t, model), { piece: t.piece, interleave: t.interleave, includeUsage }));
}

const sse = (type: string, data: JsonValue) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

export function streamAnthropic(t: StubTurn & StreamShape, model: string): string[] {
  const body = formatAnthropic(t, model);
  if (!isJsonObject(body)) return [];
  const n = t.piece ?? 4;
  const usage = isJsonObject(body.usage) ? body.usage : null;
  const blocks = Array.isArray(body.content) ? body.content.filter(isJsonObject) : [];
  const out = [
    sse('message_start', { type: 'message_start', message: { ...body, content: [], stop_reason: null, stop_sequence: null, ...(usage ? { usage: { ...usage, output_tokens: 1 } } : {}) } }),
    sse('ping', { type: 'ping' }),
  ];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      out.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const p of pieces(String(b.text), n)) out.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } }));
    } else {
      out.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id ?? '', name: b.name ?? '', input: {} } }));
      const json = typeof b.input === 'string' ? b.input : JSON.stringify(b.input);
      for (const p of pieces(json, n)) out.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } }));
    }
    out.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  out.push(sse('message_delta', { type: 'message_delta', delta: { stop_reason: body.stop_reason ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: usage ? usage.output_tokens ?? 0 : 0 } }));
  out.push(sse('message_stop', { type: 'message_stop' }));
  return out;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** The error each provider sends inside a stream that fails part-way (a transient server-side failure). */
export function streamError(provider: 'openai' | 'anthropic' | 'bedrock'): string | Uint8Array {
  if (provider === 'openai') return `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } })}\n\n`;
  if (provider === 'anthropic') return sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: 'modelStreamErrorException' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message: 'The model stream failed.', originalStatusCode: 500 })),
  });
}

/** One event-stream frame of a Bedrock ConverseStream event. */
export function bedrockFrame(eventType: string, payload: JsonValue): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

export function streamBedrock(t: StubTurn & StreamShape): Uint8Array[] {
  const body = formatBedrock(t);
  if (!isJsonObject(body)) return [];
  const n = t.piece ?? 4;
  const output = isJsonObject(body.output) && isJsonObject(body.output.message) ? body.output.message : {};
  const blocks = Array.isArray(output.content) ? output.content.filter(isJsonObject) : [];
  // Bedrock pads each event with a `p` field of varying length (so sizes do not leak content).
  const out = [bedrockFrame('messageStart', { role: 'assistant', p: 'abcd' })];
  blocks.forEach((b, contentBlockIndex) => {
    if (typeof b.text === 'string') {
      for (const p of pieces(b.text, n)) out.push(bedrockFrame('contentBlockDelta', { contentBlockIndex, delta: { text: p }, p: 'ab' }));
    } else if (isJsonObject(b.toolUse)) {
      out.push(bedrockFrame('contentBlockStart', { contentBlockIndex, start: { toolUse: { toolUseId: b.toolUse.toolUseId ?? '', name: b.toolUse.name ?? '' } }, p: 'a' }));
      const json = typeof b.toolUse.input === 'string' ? b.toolUse.input : JSON.stringify(b.toolUse.input);
      for (const p of pieces(json, n)) out.push(bedrockFrame('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input: p } }, p: 'abc' }));
    }
    out.push(bedrockFrame('contentBlockStop', { contentBlockIndex, p: 'abcdef' }));
  });
  out.push(bedrockFrame('messageStop', { stopReason: body.stopReason ?? 'end_turn', p: 'ab' }));
  out.push(bedrockFrame('metadata', { ...(isJsonObject(body.usage) ? { usage: body.usage } : {}), metrics: { latencyMs: 5 }, p: 'abcdefgh' }));
  return out;
}

/**
 * A streamed Anthropic message read event by event and assembled into the Message the
 * non-streamed call returns, so both map through `fromAnthropicMessage` to the same record:
 * `message_start` (id, model, input usage), content blocks built from `text_delta` and
 * `input_json_delta` pieces, `message_delta` (stop reason, cumulative usage), `message_stop`. A
 * stream that ends before `message_stop` is a transient failure.
 */
import type { Message as AnthropicMessage, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { safeJsonParse } from '../harness';
import { ProviderCallError } from './errors';
import type { StreamTap } from './stream-tap';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; json: string } | { type: 'other'; block: unknown };

export async function readMessageStream(stream: AsyncIterable<RawMessageStreamEvent>, tap: StreamTap, signal?: AbortSignal): Promise<AnthropicMessage> {
  let message: AnthropicMessage | null = null;
  let stopped = false;
  const blocks: Block[] = [];
  let usage: Record<string, unknown> = {};
  let stopReason: AnthropicMessage['stop_reason'] = null;
  let stopSequence: string | null = null;
  for await (const e of stream) {
    tap.event();
    switch (e.type) {
      case 'message_start':
        message = e.message;
        usage = { ...(e.message.usage ?? {}) };
        break;
      case 'content_block_start': {
        const b = e.content_block;
        if (b.type === 'text') blocks[e.index] = { type: 'text', text: b.text ?? '' };
        else if (b.type === 'tool_use') {
          blocks[e.index] = { type: 'tool_use', id: b.id, name: b.name, json: '' };
          tap.output(b.name, false);
        } else blocks[e.index] = { type: 'other', block: b };
        break;
      }
      case 'content_block_delta': {
        const b = blocks[e.index];
        if (e.delta.type === 'text_delta' && b?.type === 'text') {
          b.text += e.delta.text;
          tap.output(e.delta.text, true);
        } else if (e.delta.type === 'input_json_delta' && b?.type === 'tool_use') {
          b.json += e.delta.partial_json;
          tap.output(e.delta.partial_json, false);
        }
        break;
      }
      case 'message_delta':
        stopReason = e.delta.stop_reason ?? stopReason;
        stopSequence = e.delta.stop_sequence ?? stopSequence;
        // Counts here are cumulative; a null one leaves the earlier count as it was.
        for (const [k, v] of Object.entries(e.usage ?? {})) if (v !== null && v !== undefined) usage[k] = v;
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (signal?.aborted) throw tap.failed(new ProviderCallError('cancelled', 'anthropic call cancelled'));
  if (!message || !stopped) throw tap.endedEarly('anthropic', 'message_stop');
  const content = blocks.flatMap((b) => {
    if (b.type === 'text') return [{ type: 'text' as const, text: b.text, citations: null }];
    if (b.type === 'tool_use') {
      // Input that is not JSON stays the string the model wrote (the loop answers invalid_arguments).
      const parsed = safeJsonParse(b.json === '' ? '{}' : b.json);
      return [{ type: 'tool_use' as const, id: b.id, name: b.name, input: parsed.ok ? parsed.value : b.json }];
    }
    return [b.block];
  });
  return { ...message, content: content as AnthropicMessage['content'], stop_reason: stopReason, stop_sequence: stopSequence, usage: usage as unknown as AnthropicMessage['usage'] };
}

/**
 * A streamed Chat Completion (`stream: true`, `stream_options: { include_usage: true }`) read chunk
 * by chunk and assembled into the `chat.completion` body the non-streamed call returns, so both map
 * through the same `fromChatCompletion` to the same record. Tool calls are keyed by `index` (parallel
 * calls may arrive interleaved), the id and name from their first delta, `arguments` joined from
 * their pieces. The usage chunk is the last and optional: a stream without one has unknown usage.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderCallError } from './errors';
import type { StreamTap } from './stream-tap';

/** One shared empty list for the chunks without tool calls (most of them). */
const NO_CALLS: readonly NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number][] = [];

interface CallParts {
  id: string;
  name: string;
  arguments: string;
}

/** Reads the stream to its end; a stream that ends without a finish reason is a transient failure. */
export async function readChatStream(stream: AsyncIterable<ChatCompletionChunk>, tap: StreamTap, provider: string, signal?: AbortSignal): Promise<ChatCompletion> {
  let head: Pick<ChatCompletion, 'id' | 'created' | 'model'> | null = null;
  let content = '';
  let refusal = '';
  let finish: string | null = null;
  let usage: ChatCompletion['usage'] | undefined;
  const calls = new Map<number, CallParts>();
  for await (const chunk of stream) {
    tap.event();
    head ??= { id: chunk.id, created: chunk.created, model: chunk.model };
    if (chunk.usage) usage = chunk.usage;
    const choices = chunk.choices;
    if (!choices) continue;
    for (const choice of choices) {
      if (choice.index !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') {
        content += delta.content;
        tap.output(delta.content, true);
      }
      if (typeof delta.refusal === 'string' && delta.refusal !== '') {
        refusal += delta.refusal;
        tap.output(delta.refusal, true);
      }
      for (const t of delta.tool_calls ?? NO_CALLS) {
        let call = calls.get(t.index);
        if (!call) calls.set(t.index, (call = { id: '', name: '', arguments: '' }));
        if (t.id) call.id = t.id;
        // The name comes whole in the call's first delta; a server repeating it does not double it.
        if (t.function?.name && call.name === '') {
          call.name = t.function.name;
          tap.output(t.function.name, false);
        }
        if (t.function?.arguments) {
          call.arguments += t.function.arguments;
          tap.output(t.function.arguments, false);
        }
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  // The SDK ends the iteration quietly when the request is aborted: that is a cancel, not an early end.
  if (signal?.aborted) throw tap.failed(new ProviderCallError('cancelled', `${provider} call cancelled`));
  if (finish === null || head === null) throw tap.endedEarly(provider, 'a chunk with finish_reason');
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, c]) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
  return {
    ...head,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: content === '' ? null : content, refusal: refusal === '' ? null : refusal, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: finish as ChatCompletion.Choice['finish_reason'],
      },
    ],
    ...(usage ? { usage } : {}),
  };
}

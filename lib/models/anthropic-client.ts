/**
 * The Anthropic Messages API behind the Converse-shaped ModelClient, through `@anthropic-ai/sdk`.
 * Converse blocks map one to one (text, tool_use, tool_result); the reply keeps Anthropic's tool-use
 * ids, its stop reason and its usage (cache reads and writes counted as input, reads also as cached).
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message as AnthropicMessage, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { isJsonObject, type JsonValue } from '../harness';
import type { ConverseRequest, ModelClient } from '../harness';
import type { Message, ModelResponse, StopReason, ToolCallRequest } from '../harness';
import { cutBodyError, parseRetryAfter, ProviderCallError, reasonForStatus } from './errors';
import { toolResultText } from './openai-client';
import { mappedStopReason } from './stop-reason';
import { rawBody } from './raw-body';
import { billedUsage, reportedCount, reportedPair } from './usage';
import { SDK_TIMEOUT_OFF_MS } from './tunables';
import { readMessageStream } from './anthropic-stream';
import { StreamTap } from './stream-tap';

export interface AnthropicClientOptions {
  model: string;
  apiKey: string;
  /** Endpoint override (the SDK appends `/v1/messages`). */
  baseURL?: string;
  /** Stream the answer (Messages streaming); the record is the same. */
  stream?: boolean;
}

export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content.map((b): ContentBlockParam => {
      if ('text' in b) return { type: 'text', text: b.text };
      if ('toolUse' in b) {
        const input = isJsonObject(b.toolUse.input) ? b.toolUse.input : { _raw: b.toolUse.input };
        return { type: 'tool_use', id: b.toolUse.toolUseId, name: b.toolUse.name, input };
      }
      return {
        type: 'tool_result',
        tool_use_id: b.toolResult.toolUseId,
        content: toolResultText(b.toolResult.content),
        is_error: b.toolResult.status === 'error',
      };
    }),
  }));
}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

export function fromAnthropicMessage(r: AnthropicMessage, modelId: string, latencyMs: number): ModelResponse {
  const cacheRead = reportedCount(r?.usage?.cache_read_input_tokens) ?? 0;
  const cacheWrite = reportedCount(r?.usage?.cache_creation_input_tokens) ?? 0;
  const reported = reportedPair(r?.usage?.input_tokens, r?.usage?.output_tokens);
  // Anthropic's input_tokens excludes cached tokens; the total prompt is the sum.
  const usage = reported.inputTokens === null ? reported : { inputTokens: reported.inputTokens + cacheRead + cacheWrite, outputTokens: reported.outputTokens };
  if (!r || !Array.isArray(r.content)) throw new ProviderCallError('bad_response', 'anthropic answered without content blocks', { usage: billedUsage(usage) });
  const texts: string[] = [];
  const toolCalls: ToolCallRequest[] = [];
  for (const block of r.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') toolCalls.push({ toolUseId: block.id, name: block.name, arguments: block.input as JsonValue });
  }
  const finish = r.stop_reason ?? 'end_turn';
  return {
    text: texts.length > 0 ? texts.join('') : null,
    toolCalls,
    stopReason: mappedStopReason(STOP_REASONS[finish] ?? 'end_turn', toolCalls.length > 0),
    finishReason: finish,
    ...usage,
    ...(typeof r.model === 'string' && r.model !== '' ? { responseModel: r.model } : {}),
    ...(usage.inputTokens !== null ? { cachedTokens: cacheRead, cacheWriteTokens: cacheWrite } : {}),
    latencyMs,
    modelId,
    provider: 'anthropic',
  };
}

export function classifyAnthropicError(err: unknown): ProviderCallError {
  if (err instanceof ProviderCallError) return err;
  if (err instanceof APIUserAbortError) return new ProviderCallError('cancelled', 'anthropic call cancelled', { cause: err });
  if (err instanceof APIConnectionTimeoutError) return new ProviderCallError('timeout', 'anthropic timed out', { cause: err });
  if (err instanceof APIConnectionError) return new ProviderCallError('server_error', `anthropic unreachable: ${err.message}`, { cause: err });
  // An `error` event inside a stream (no HTTP status): overloaded or an internal error is transient.
  if (err instanceof APIError && err.status === undefined && /overloaded_error|api_error/.test(err.message)) {
    return new ProviderCallError('server_error', `anthropic's stream reported an error: ${err.message}`, { cause: err });
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    // 529 is Anthropic's "overloaded": a server error that a later attempt may get through.
    return new ProviderCallError(reasonForStatus(err.status), `anthropic answered HTTP ${err.status}: ${err.message}`, {
      status: err.status,
      retryAfterMs: parseRetryAfter(err.headers?.get('retry-after')),
      cause: err,
    });
  }
  const cut = cutBodyError(err, 'anthropic');
  if (cut) return cut;
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderCallError('bad_response', `anthropic sent an unreadable response: ${message}`, { cause: err });
}

export class AnthropicModelClient implements ModelClient {
  readonly modelId: string;
  readonly endpoint: string;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicClientOptions) {
    this.modelId = `anthropic:${options.model}`;
    this.endpoint = options.baseURL ?? 'https://api.anthropic.com';
    this.client = new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: SDK_TIMEOUT_OFF_MS });
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const tools: Tool[] = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Tool['input_schema'],
    }));
    const body = {
      model: this.options.model,
      max_tokens: request.maxTokens,
      system: request.system,
      messages: toAnthropicMessages(request.messages),
      ...(tools.length > 0 ? { tools } : {}),
    };
    const started = performance.now();
    const tap = this.options.stream ? new StreamTap(started, request.onDelta) : null;
    let reply: AnthropicMessage;
    try {
      reply = tap
        ? await readMessageStream(await this.client.messages.create({ ...body, stream: true }, { signal: request.signal }), tap, request.signal)
        : await this.client.messages.create(body, { signal: request.signal });
    } catch (err) {
      const classified = classifyAnthropicError(err);
      throw tap ? tap.failed(classified) : classified;
    }
    const response = fromAnthropicMessage(reply, this.modelId, Math.round((performance.now() - started) * 100) / 100);
    return { ...response, ...(tap ? { timeToFirstTokenMs: tap.timeToFirstTokenMs } : {}), raw: rawBody(reply) };
  }
}

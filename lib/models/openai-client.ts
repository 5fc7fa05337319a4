/**
 * OpenAI Chat Completions (and any OpenAI-compatible server: vLLM, Ollama, LM Studio, llama.cpp)
 * behind the Converse-shaped ModelClient, through the official `openai` SDK. Converse messages map
 * to chat messages (tool results become `tool` messages), the reply maps back exactly: text and
 * parallel tool calls in one turn, the provider's tool-call ids, finish reason and usage.
 */
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { safeJsonParse, type JsonValue } from '../harness';
import type { ConverseRequest, ModelClient } from '../harness';
import type { Message, ModelResponse, StopReason, ToolCallRequest, ToolResultContentPart } from '../harness';
import { cutBodyError, parseRetryAfter, ProviderCallError, reasonForStatus } from './errors';
import { rawBody } from './raw-body';
import { billedUsage, reportedCount, reportedPair } from './usage';
import { mappedStopReason } from './stop-reason';
import { SDK_TIMEOUT_OFF_MS } from './tunables';
import { readChatStream } from './openai-stream';
import { StreamTap } from './stream-tap';

export interface OpenAIClientOptions {
  provider: 'openai' | 'openai-compatible';
  model: string;
  apiKey: string;
  baseURL?: string;
  /** Sent as request `metadata` (OpenAI-compatible servers only; the caller gives it only to the project's own model server). */
  metadata?: Record<string, string>;
  /** Stream the answer (`stream: true` with the usage chunk asked for); the record is the same. */
  stream?: boolean;
}

/** The text a tool result carries to a chat model: JSON parts serialised, text parts as they are. */
export function toolResultText(parts: readonly ToolResultContentPart[]): string {
  return parts.map((p) => ('json' in p ? JSON.stringify(p.json) : p.text)).join('\n');
}

export function toChatMessages(system: string, messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const text = m.content.flatMap((b) => ('text' in b ? [b.text] : [])).join('\n');
      const calls = m.content.flatMap((b) => ('toolUse' in b ? [b.toolUse] : []));
      out.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.toolUseId,
                type: 'function' as const,
                // A malformed call is echoed back as the model wrote it, so it can see its mistake.
                function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) },
              })),
            }
          : {}),
      });
      continue;
    }
    const texts: string[] = [];
    for (const b of m.content) {
      if ('toolResult' in b) out.push({ role: 'tool', tool_call_id: b.toolResult.toolUseId, content: toolResultText(b.toolResult.content) });
      else if ('text' in b) texts.push(b.text);
    }
    if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n') });
  }
  return out;
}

const STOP_REASONS: Record<string, StopReason> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'content_filter',
};

/**
 * Tool-call arguments arrive as a JSON string. Unparseable text is kept as the raw string: the
 * loop's validation then answers with an `invalid_arguments` result the model can correct.
 */
export function parseToolArguments(raw: string): JsonValue {
  const parsed = safeJsonParse(raw === '' ? '{}' : raw);
  return parsed.ok ? parsed.value : raw;
}

export function fromChatCompletion(c: ChatCompletion, modelId: string, provider: string, latencyMs: number): ModelResponse {
  const usage = reportedPair(c?.usage?.prompt_tokens, c?.usage?.completion_tokens);
  /** What every answer carries besides its turn: usage, the response model id, timing and names. */
  const answered = (turn: Pick<ModelResponse, 'text' | 'toolCalls' | 'stopReason' | 'finishReason'>): ModelResponse => ({
    ...turn,
    ...usage,
    ...(typeof c.model === 'string' && c.model !== '' ? { responseModel: c.model } : {}),
    // Cached tokens are known only with usage: reported usage without the detail means none were cached.
    ...(usage.inputTokens !== null ? { cachedTokens: reportedCount(c.usage?.prompt_tokens_details?.cached_tokens) ?? 0 } : {}),
    latencyMs,
    modelId,
    provider,
  });
  // An empty `choices` list is an empty answer (the loop asks again once, then stops EMPTY_ANSWER),
  // with whatever usage it reported; a choice without a message is an unreadable response.
  if (Array.isArray(c?.choices) && c.choices.length === 0) return answered({ text: null, toolCalls: [], stopReason: 'end_turn', finishReason: 'no choices' });
  const choice = c?.choices?.[0];
  if (!choice || typeof choice.message !== 'object' || choice.message === null) {
    throw new ProviderCallError('bad_response', `${provider} answered without a choice`, { usage: billedUsage(usage) });
  }
  const toolCalls: ToolCallRequest[] = (choice.message.tool_calls ?? []).flatMap((t) =>
    t.type === 'function' ? [{ toolUseId: t.id, name: t.function.name, arguments: parseToolArguments(t.function.arguments) }] : [],
  );
  const finish = choice.finish_reason ?? 'stop';
  // A refusal arrives as `message.refusal` (structured outputs) with finish_reason `stop`.
  const refusal = typeof choice.message.refusal === 'string' && choice.message.refusal !== '' ? choice.message.refusal : null;
  const stopReason = mappedStopReason(refusal !== null ? 'refusal' : (STOP_REASONS[finish] ?? 'end_turn'), toolCalls.length > 0);
  const content = typeof choice.message.content === 'string' && choice.message.content !== '' ? choice.message.content : null;
  return answered({ text: content ?? refusal, toolCalls, stopReason, finishReason: finish });
}

/** Maps an SDK error to a typed reason; anything unknown is a bad response. */
export function classifyOpenAIError(err: unknown, provider: string): ProviderCallError {
  if (err instanceof ProviderCallError) return err;
  if (err instanceof OpenAI.APIUserAbortError) return new ProviderCallError('cancelled', `${provider} call cancelled`, { cause: err });
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new ProviderCallError('timeout', `${provider} timed out`, { cause: err });
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    return new ProviderCallError(reasonForStatus(err.status), `${provider} answered HTTP ${err.status}: ${err.message}`, {
      status: err.status,
      retryAfterMs: parseRetryAfter(err.headers?.get('retry-after')),
      cause: err,
    });
  }
  if (err instanceof OpenAI.APIConnectionError) return new ProviderCallError('server_error', `${provider} unreachable: ${err.message}`, { cause: err });
  // An error chunk inside a stream (no HTTP status: the 200 had already begun): the server failed part-way.
  if (err instanceof OpenAI.APIError && err.status === undefined) return new ProviderCallError('server_error', `${provider}'s stream reported an error: ${err.message}`, { cause: err });
  const cut = cutBodyError(err, provider);
  if (cut) return cut;
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderCallError('bad_response', `${provider} sent an unreadable response: ${message}`, { cause: err });
}

export class OpenAIModelClient implements ModelClient {
  readonly modelId: string;
  readonly endpoint: string;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAIClientOptions) {
    this.modelId = `${options.provider}:${options.model}`;
    this.endpoint = options.baseURL ?? 'https://api.openai.com/v1';
    // Retries belong to the resilience layer: SDK retries would multiply its attempts.
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: SDK_TIMEOUT_OFF_MS });
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const tools: ChatCompletionTool[] = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    const compatible = this.options.provider === 'openai-compatible';
    const body = {
      model: this.options.model,
      messages: toChatMessages(request.system, request.messages),
      ...(tools.length > 0 ? { tools } : {}),
      // OpenAI's current models take max_completion_tokens; compatible servers know max_tokens.
      ...(compatible ? { max_tokens: request.maxTokens } : { max_completion_tokens: request.maxTokens }),
      ...(compatible && this.options.metadata ? { metadata: this.options.metadata } : {}),
    };
    const started = performance.now();
    if (this.options.stream) return this.streamed(body, request, started);
    let completion: ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(body, { signal: request.signal });
    } catch (err) {
      throw classifyOpenAIError(err, this.options.provider);
    }
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    // The SDK hands back the parsed body as the provider sent it; it is recorded beside the mapping.
    return { ...fromChatCompletion(completion, this.modelId, this.options.provider, latencyMs), raw: rawBody(completion) };
  }

  /** The same call streamed; the assembled body is what is mapped and recorded (openai-stream.ts). */
  private async streamed(body: Omit<ChatCompletionCreateParamsStreaming, 'stream'>, request: ConverseRequest, started: number): Promise<ModelResponse> {
    const tap = new StreamTap(started, request.onDelta);
    let completion: ChatCompletion;
    try {
      const stream = await this.client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal: request.signal });
      completion = await readChatStream(stream, tap, this.options.provider, request.signal);
    } catch (err) {
      throw tap.failed(classifyOpenAIError(err, this.options.provider));
    }
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    const response = fromChatCompletion(completion, this.modelId, this.options.provider, latencyMs);
    return { ...response, timeToFirstTokenMs: tap.timeToFirstTokenMs, raw: rawBody(completion) };
  }
}

/**
 * Amazon Bedrock's Converse API behind the ModelClient, through `@aws-sdk/client-bedrock-runtime`.
 * Converse is the shape the harness already speaks, so messages pass through; the reply keeps
 * Bedrock's tool-use ids, stop reason and usage. The HTTP/1.1 handler is explicit: the SDK's default
 * HTTP/2 handler cannot talk to plain HTTP/1.1 endpoints (live-stack.md §3).
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock as BedrockContentBlock,
  type ConverseCommandOutput,
  type Message as BedrockMessage,
  type Tool,
  type ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { JsonValue } from '../harness';
import type { ConverseRequest, ModelClient } from '../harness';
import type { Message, ModelResponse, StopReason, ToolCallRequest } from '../harness';
import { cutBodyError, parseRetryAfter, ProviderCallError, reasonForStatus, type ModelErrorReason } from './errors';
import { mappedStopReason } from './stop-reason';
import { rawBody } from './raw-body';
import { billedUsage, reportedCount, reportedPair } from './usage';
import { readConverseStream } from './bedrock-stream';
import { StreamTap } from './stream-tap';

/** Smithy's JSON document type, as the Converse shapes use it. */
type DocumentType = NonNullable<ToolUseBlock['input']>;

export interface BedrockClientOptions {
  model: string;
  region: string;
  /** Endpoint override (a local stub, a VPC endpoint). */
  endpoint?: string;
  /** Explicit credentials; the standard AWS chain otherwise. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Stream the answer (ConverseStream); the record is the same. */
  stream?: boolean;
}

export function toBedrockMessages(messages: readonly Message[]): BedrockMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content.map((b): BedrockContentBlock => {
      if ('text' in b) return { text: b.text };
      if ('toolUse' in b) return { toolUse: { toolUseId: b.toolUse.toolUseId, name: b.toolUse.name, input: b.toolUse.input as DocumentType } };
      return {
        toolResult: {
          toolUseId: b.toolResult.toolUseId,
          status: b.toolResult.status,
          content: b.toolResult.content.map((p) => ('json' in p ? { json: p.json as DocumentType } : { text: p.text })),
        },
      };
    }),
  }));
}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  stop_sequence: 'end_turn',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  content_filtered: 'content_filter',
  guardrail_intervened: 'content_filter',
};

export function fromConverseOutput(r: ConverseCommandOutput, modelId: string, latencyMs: number): ModelResponse {
  // Converse's inputTokens is only the part of the prompt that was neither read from nor written to
  // the cache; the prompt sent is the sum (the bug LiteLLM fixed in #15292).
  const cacheRead = reportedCount(r?.usage?.cacheReadInputTokens) ?? 0;
  const cacheWrite = reportedCount(r?.usage?.cacheWriteInputTokens) ?? 0;
  const reported = reportedPair(r?.usage?.inputTokens, r?.usage?.outputTokens);
  const usage = reported.inputTokens === null ? reported : { inputTokens: reported.inputTokens + cacheRead + cacheWrite, outputTokens: reported.outputTokens };
  const content = r?.output?.message?.content;
  if (!Array.isArray(content)) throw new ProviderCallError('bad_response', 'bedrock answered without an output message', { usage: billedUsage(usage) });
  const texts: string[] = [];
  const toolCalls: ToolCallRequest[] = [];
  for (const block of content) {
    if (block.text !== undefined) texts.push(block.text);
    else if (block.toolUse) {
      toolCalls.push({ toolUseId: block.toolUse.toolUseId ?? '', name: block.toolUse.name ?? '', arguments: (block.toolUse.input ?? {}) as JsonValue });
    }
  }
  const finish = r.stopReason ?? 'end_turn';
  return {
    text: texts.length > 0 ? texts.join('') : null,
    toolCalls,
    stopReason: mappedStopReason(STOP_REASONS[finish] ?? 'end_turn', toolCalls.length > 0),
    finishReason: finish,
    ...usage,
    ...(usage.inputTokens !== null ? { cachedTokens: cacheRead, cacheWriteTokens: cacheWrite } : {}),
    latencyMs,
    modelId,
    provider: 'bedrock',
  };
}

const NAMED: Record<string, ModelErrorReason> = {
  ThrottlingException: 'throttled',
  ServiceUnavailableException: 'server_error',
  ModelNotReadyException: 'server_error',
  InternalServerException: 'server_error',
  ModelTimeoutException: 'timeout',
  // An exception event inside a ConverseStream answer: the model failed mid-stream.
  ModelStreamErrorException: 'server_error',
  AccessDeniedException: 'auth',
  UnrecognizedClientException: 'auth',
  ExpiredTokenException: 'auth',
  ValidationException: 'bad_request',
  ResourceNotFoundException: 'bad_request',
  AbortError: 'cancelled',
  TimeoutError: 'timeout',
};

export function classifyBedrockError(err: unknown): ProviderCallError {
  if (err instanceof ProviderCallError) return err;
  const cut = cutBodyError(err, 'bedrock');
  if (cut) return cut;
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };
  const status = e?.$metadata?.httpStatusCode;
  const message = e?.message ?? String(err);
  const named = e?.name ? NAMED[e.name] : undefined;
  const kind: ModelErrorReason =
    named ?? (typeof status === 'number' && status >= 400 ? reasonForStatus(status) : 'bad_response');
  const detail = kind === 'bad_response' ? `bedrock sent an unreadable response: ${message}` : `bedrock ${e?.name ?? 'error'}${status ? ` (HTTP ${status})` : ''}: ${message}`;
  return new ProviderCallError(kind, detail, {
    status: status ?? null,
    retryAfterMs: parseRetryAfter(e?.$response?.headers?.['retry-after']),
    cause: err,
  });
}

export class BedrockModelClient implements ModelClient {
  readonly modelId: string;
  readonly endpoint: string;
  private readonly client: BedrockRuntimeClient;

  constructor(private readonly options: BedrockClientOptions) {
    this.modelId = `bedrock:${options.model}`;
    this.endpoint = options.endpoint ?? `https://bedrock-runtime.${options.region}.amazonaws.com`;
    this.client = new BedrockRuntimeClient({
      region: options.region,
      endpoint: options.endpoint,
      credentials: options.credentials,
      // One attempt: retries belong to the resilience layer.
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler({ throwOnRequestTimeout: true }),
    });
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const tools: Tool[] = request.tools.map((t) => ({
      toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.inputSchema as DocumentType } },
    }));
    const input = {
      modelId: this.options.model,
      system: [{ text: request.system }],
      messages: toBedrockMessages(request.messages),
      ...(tools.length > 0 ? { toolConfig: { tools } } : {}),
      inferenceConfig: { maxTokens: request.maxTokens },
    };
    const started = performance.now();
    if (this.options.stream) return this.streamed(input, request, started);
    const command = new ConverseCommand(input);
    const body = captureBody(command);
    let output: ConverseCommandOutput;
    try {
      output = await this.client.send(command, { abortSignal: request.signal });
    } catch (err) {
      throw classifyBedrockError(err);
    }
    const response = fromConverseOutput(output, this.modelId, Math.round((performance.now() - started) * 100) / 100);
    return body.text === null ? response : { ...response, raw: rawBody(body.text) };
  }

  /** The same call through ConverseStream; the assembled output is what is mapped and recorded (bedrock-stream.ts). */
  private async streamed(input: ConstructorParameters<typeof ConverseStreamCommand>[0], request: ConverseRequest, started: number): Promise<ModelResponse> {
    const tap = new StreamTap(started, request.onDelta);
    let output: ConverseCommandOutput;
    try {
      const reply = await this.client.send(new ConverseStreamCommand(input), { abortSignal: request.signal });
      if (!reply.stream) throw new ProviderCallError('bad_response', 'bedrock answered ConverseStream without a stream');
      output = await readConverseStream(reply.stream, tap, request.signal);
    } catch (err) {
      throw tap.failed(classifyBedrockError(err));
    }
    const response = fromConverseOutput(output, this.modelId, Math.round((performance.now() - started) * 100) / 100);
    const { $metadata: _metadata, ...body } = output;
    return { ...response, timeToFirstTokenMs: tap.timeToFirstTokenMs, raw: rawBody(body) };
  }
}

/**
 * Keeps the HTTP body of a successful reply as text, for the recording: the SDK deserialises it
 * into typed shapes (dropping fields it does not know), so the bytes are read just before its
 * deserializer (same step, lower priority = closer to the wire) and handed on as a Uint8Array,
 * which the deserializer accepts as a collected body.
 */
function captureBody(command: ConverseCommand): { text: string | null } {
  const captured: { text: string | null } = { text: null };
  command.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const res = out.response as { statusCode?: number; body?: unknown };
      if (res && typeof res.statusCode === 'number' && res.statusCode < 300 && res.body && typeof (res.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function') {
        const chunks: Uint8Array[] = [];
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
        const bytes = Buffer.concat(chunks);
        captured.text = bytes.toString('utf8');
        res.body = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }
      return out;
    },
    { step: 'deserialize', priority: 'low', name: 'stockroomCaptureBody' },
  );
  return captured;
}

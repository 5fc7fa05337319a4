/**
 * Wire-level provider stubs for tests: a node:http server on 127.0.0.1 (ephemeral port) that
 * answers in one provider's own format — OpenAI chat completions, Anthropic messages or Bedrock
 * Converse — from a queue of scripted replies, and records every request it saw. Provider clients
 * are tested against these, never by mocking the SDK. Reusable by any test that needs a live model.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonValue } from '../../harness';
import { formatAnthropic, formatBedrock, formatOpenAI, type StubTurn } from './wire-formats';
import { streamAnthropic, streamBedrock, streamError, streamOpenAI, type StreamShape } from './wire-streams';

export type StubProvider = 'openai' | 'anthropic' | 'bedrock';

/** Credentials each provider's SDK needs to send a request at all (the stub checks none of them). */
export const STUB_CREDENTIALS: Readonly<Record<StubProvider, Readonly<Record<string, string>>>> = {
  openai: { OPENAI_API_KEY: 'sk-test' },
  anthropic: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  bedrock: { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIAFAKE', AWS_SECRET_ACCESS_KEY: 'x' },
};

/** One scripted reply: a model turn in the provider's format, an HTTP error, an unreadable body, or no answer. */
export type StubReply =
  | ({ kind?: 'turn' } & StubTurn & StreamShape)
  /**
   * A streamed turn that goes wrong after `after` events: `cut` sends half of the next event and
   * closes the connection; `end` ends the response cleanly without the rest (no final event);
   * `stall` sends nothing more and never ends; `error` sends the provider's own mid-stream error
   * event (OpenAI's `error` chunk, Anthropic's `event: error` overloaded_error, a Bedrock exception
   * frame) and ends.
   */
  | ({ kind: 'stream-fault'; after: number; fault: 'cut' | 'end' | 'stall' | 'error' } & StubTurn & StreamShape)
  | { kind: 'error'; status: number; headers?: Record<string, string>; message?: string; errorType?: string }
  | { kind: 'raw'; status?: number; body: string }
  /** A 200 whose body is cut: the full length is announced, the first `keep` characters of the turn's body sent, the connection closed. */
  | ({ kind: 'cut'; keep: number } & StubTurn)
  | { kind: 'hang' };

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: JsonValue;
}

export class ProviderStub {
  readonly requests: StubRequest[] = [];
  private readonly queue: StubReply[] = [];
  private readonly hanging = new Set<() => void>();
  private responder: ((request: StubRequest) => StubReply) | null = null;

  private constructor(
    readonly provider: StubProvider,
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** Starts a stub for `provider` on 127.0.0.1 with an ephemeral port. */
  static async start(provider: StubProvider): Promise<ProviderStub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const stub = new ProviderStub(provider, server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => stub.answer(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    return stub;
  }

  /** The base URL each SDK expects: OpenAI's includes `/v1`; Anthropic's SDK appends it; Bedrock takes the origin. */
  get baseURL(): string {
    return this.provider === 'openai' ? `${this.origin}/v1` : this.origin;
  }

  /** Queues replies, answered in order; past the end, every request gets a plain final text. */
  enqueue(...replies: StubReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answers every request the queue does not, from the request itself (e.g. a judge's verdict on the answer it was sent). */
  respondWith(responder: ((request: StubRequest) => StubReply) | null): this {
    this.responder = responder;
    return this;
  }

  /** Forgets queued replies and recorded requests (between tests sharing one stub). */
  reset(): void {
    this.queue.length = 0;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(method: string, path: string, headers: IncomingHttpHeaders, text: string, res: ServerResponse): void {
    let body: JsonValue = null;
    try {
      body = text === '' ? null : (JSON.parse(text) as JsonValue);
    } catch {
      body = text;
    }
    const request = { method, path, headers, body };
    this.requests.push(request);
    const reply = this.queue.shift() ?? this.responder?.(request) ?? { text: 'Done.' };
    if (reply.kind === undefined || reply.kind === 'turn' || reply.kind === 'stream-fault') {
      if (this.streamed(path, body)) return this.stream(reply, body, res);
      if (reply.kind === 'stream-fault') return void res.writeHead(400, { 'content-type': 'text/plain' }).end('the stub was given a stream-fault reply for a request that is not streamed');
    }
    if (reply.kind === 'hang') {
      // Never answers; released when the client gives up or the stub closes.
      const release = () => res.destroy();
      this.hanging.add(release);
      res.on('close', () => this.hanging.delete(release));
      return;
    }
    if (reply.kind === 'cut') {
      const modelName = modelOf(body);
      const full = JSON.stringify(this.provider === 'openai' ? formatOpenAI(reply, modelName) : this.provider === 'anthropic' ? formatAnthropic(reply, modelName) : formatBedrock(reply));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) });
      res.write(full.slice(0, reply.keep), () => res.destroy());
      return;
    }
    if (reply.kind === 'raw') {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(reply.body);
      return;
    }
    if (reply.kind === 'error') {
      const message = reply.message ?? `stub error ${reply.status}`;
      const errorBody =
        this.provider === 'openai'
          ? { error: { message, type: reply.errorType ?? 'api_error', code: null } }
          : this.provider === 'anthropic'
            ? { type: 'error', error: { type: reply.errorType ?? 'api_error', message } }
            : { message };
      const extra: Record<string, string> = this.provider === 'bedrock' ? { 'x-amzn-errortype': reply.errorType ?? 'InternalServerException' } : {};
      res.writeHead(reply.status, { 'content-type': 'application/json', ...extra, ...reply.headers }).end(JSON.stringify(errorBody));
      return;
    }
    const modelName = modelOf(body);
    const payload =
      this.provider === 'openai' ? formatOpenAI(reply, modelName) : this.provider === 'anthropic' ? formatAnthropic(reply, modelName) : formatBedrock(reply);
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${this.requests.length}` }).end(JSON.stringify(payload));
  }

  /** Whether a request asks for a streamed answer: `stream: true` (OpenAI, Anthropic) or Bedrock's ConverseStream path. */
  private streamed(path: string, body: JsonValue): boolean {
    if (this.provider === 'bedrock') return path.split('?')[0]!.endsWith('/converse-stream');
    return typeof body === 'object' && body !== null && !Array.isArray(body) && body.stream === true;
  }

  /** Answers a streaming request event by event, each its own write (see StubReply's `stream-fault`). */
  private stream(reply: ({ kind?: 'turn' | 'stream-fault' } & StubTurn & StreamShape & { after?: number; fault?: string }), body: JsonValue, res: ServerResponse): void {
    const model = modelOf(body);
    const options = typeof body === 'object' && body !== null && !Array.isArray(body) ? body.stream_options : null;
    const includeUsage = typeof options === 'object' && options !== null && !Array.isArray(options) && options.include_usage === true;
    const events: (string | Uint8Array)[] =
      this.provider === 'openai' ? streamOpenAI(reply, model, includeUsage) : this.provider === 'anthropic' ? streamAnthropic(reply, model) : streamBedrock(reply);
    const contentType = this.provider === 'bedrock' ? 'application/vnd.amazon.eventstream' : 'text/event-stream';
    res.writeHead(200, { 'content-type': contentType, 'x-request-id': `req_${this.requests.length}`, ...(this.provider === 'bedrock' ? { 'x-amzn-requestid': `req_${this.requests.length}` } : {}) });
    const fault = reply.kind === 'stream-fault' ? { after: reply.after ?? 0, how: reply.fault } : null;
    const sent = fault ? events.slice(0, fault.after) : events;
    for (const e of sent) res.write(e);
    if (!fault) return void res.end();
    if (fault.how === 'end') return void res.end();
    if (fault.how === 'error') return void res.end(streamError(this.provider));
    if (fault.how === 'stall') {
      const release = () => res.destroy();
      this.hanging.add(release);
      res.on('close', () => this.hanging.delete(release));
      return;
    }
    const next = events[fault.after];
    const half = next === undefined ? '' : next.slice(0, Math.max(1, Math.floor(next.length / 2)));
    res.write(half, () => res.destroy());
  }
}

function modelOf(body: JsonValue): string {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && typeof body.model === 'string' ? body.model : 'stub-model';
}

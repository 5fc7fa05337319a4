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

export type StubProvider = 'openai' | 'anthropic' | 'bedrock';

/** Credentials each provider's SDK needs to send a request at all (the stub checks none of them). */
export const STUB_CREDENTIALS: Readonly<Record<StubProvider, Readonly<Record<string, string>>>> = {
  openai: { OPENAI_API_KEY: 'sk-test' },
  anthropic: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  bedrock: { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIAFAKE', AWS_SECRET_ACCESS_KEY: 'x' },
};

/** One scripted reply: a model turn in the provider's format, an HTTP error, an unreadable body, or no answer. */
export type StubReply =
  | ({ kind?: 'turn' } & StubTurn)
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
    if (reply.kind === 'hang') {
      // Never answers; released when the client gives up or the stub closes.
      const release = () => res.destroy();
      this.hanging.add(release);
      res.on('close', () => this.hanging.delete(release));
      return;
    }
    if (reply.kind === 'cut') {
      const modelName = typeof body === 'object' && body !== null && !Array.isArray(body) && typeof body.model === 'string' ? body.model : 'stub-model';
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
    const modelName = typeof body === 'object' && body !== null && !Array.isArray(body) && typeof body.model === 'string' ? body.model : 'stub-model';
    const payload =
      this.provider === 'openai' ? formatOpenAI(reply, modelName) : this.provider === 'anthropic' ? formatAnthropic(reply, modelName) : formatBedrock(reply);
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${this.requests.length}` }).end(JSON.stringify(payload));
  }
}

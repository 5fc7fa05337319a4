/**
 * A Gemini API (generativelanguage, v1beta) wire stub on 127.0.0.1 for the fixture recorder:
 * answers `POST /v1beta/models/{model}:generateContent` in Google's own format from a queue of
 * scripted turns, as ProviderStub does for OpenAI, Anthropic and Bedrock (whose provider union the
 * model tests enumerate, so Gemini lives here, where only the recorder uses it).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StubTurn } from '../../../models/testing/wire-formats';

export class GeminiStub {
  readonly requests: Array<{ path: string; body: unknown }> = [];
  private readonly queue: StubTurn[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<GeminiStub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const stub = new GeminiStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        stub.requests.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown });
        const model = /\/models\/([^:]+):generateContent/.exec(path)?.[1];
        if (!model) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: `no such method ${path}`, status: 'NOT_FOUND' } }));
          return;
        }
        const turn = stub.queue.shift() ?? { text: 'Done.' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(formatGemini(turn, model, stub.requests.length)));
      });
    });
    return stub;
  }

  /** The base URL @ai-sdk/google expects (it appends `/models/{model}:generateContent`). */
  get baseURL(): string {
    return `${this.origin}/v1beta`;
  }

  enqueue(...turns: StubTurn[]): this {
    this.queue.push(...turns);
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Gemini reports the prompt (cached part included) as promptTokenCount, the cached part apart. */
export function formatGemini(t: StubTurn, model: string, n: number): unknown {
  const u = { input: 100, output: 20, cached: 0, ...t.usage };
  const parts = [...(t.text !== undefined ? [{ text: t.text }] : []), ...(t.calls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args } }))];
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: t.stop ?? 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: u.input,
      candidatesTokenCount: u.output,
      totalTokenCount: u.input + u.output,
      ...(u.cached ? { cachedContentTokenCount: u.cached } : {}),
    },
    modelVersion: model,
    responseId: `stub-response-${n}`,
  };
}

/**
 * The offline model server: the deterministic fake model behind an OpenAI-compatible endpoint
 * (`POST /v1/chat/completions`, `GET /v1/models`, model `stockroom-fake`), so the live provider
 * path runs end to end without a network. Usage is the fake model's own token count of the request
 * it received. Answers stream (`stream: true`) as OpenAI's do. A golden case's scripted turns are chosen by `metadata.stockroom_case_id`, never by
 * the query text; `metadata.stockroom_weaknesses` gives the simulated model the same dispositions
 * the fake model has under those flags (following injections, naive retries).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseWeaknesses } from '../../harness';
import { isJsonObject, safeJsonParse, type JsonValue } from '../../harness';
import { FakeModelClient, type ScriptTurn } from '../../harness';
import { HeuristicPlanner } from '../../harness';
import { productVocabulary } from '../../stockroom';
import type { Dataset } from '../../stockroom';
import { modelHabitsFor } from '../../stockroom';
import { fromChatMessages, fromChatTools } from './chat-to-converse';
import { chatChunkEvents, chatCompletionChunks } from './chat-stream';

import { MODEL_SERVER_MODEL } from './model-name';

export { MODEL_SERVER_MODEL } from './model-name';
/** Request bodies above this are refused (a long run's prompt is well under it). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ModelServerOptions {
  dataset: Dataset;
  port?: number;
  host?: string;
  /** Added before every completion, so benches and demos behave like a real model. */
  latencyMs?: number;
}

export interface ModelServer {
  /** The base URL clients use, ending in `/v1`. */
  readonly url: string;
  readonly port: number;
  /** Completions requests received so far (tests wait on it). */
  readonly requests: number;
  close(): Promise<void>;
}

/** OpenAI's finish_reason for each mapped stop reason (a refusal is `stop` with `message.refusal`; the fake never refuses). */
const FINISH = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'stop', content_filter: 'content_filter' } as const;

function send(res: ServerResponse, status: number, body: JsonValue): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function fail(res: ServerResponse, status: number, message: string, param: string | null = null): void {
  send(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const { dataset } = options;
  const planners = new Map<string, HeuristicPlanner>();
  const plannerFor = (weaknesses: string): HeuristicPlanner => {
    let p = planners.get(weaknesses);
    if (!p) {
      p = new HeuristicPlanner({ productVocabulary: productVocabulary(dataset), ...modelHabitsFor(parseWeaknesses(weaknesses)), floatKeys: dataset.floatKeys });
      planners.set(weaknesses, p);
    }
    return p;
  };
  let sequence = 0;

  let received = 0;
  async function completions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    received += 1;
    const text = await readBody(req);
    if (text === null) return fail(res, 413, 'request body too large');
    const parsed = safeJsonParse(text);
    if (!parsed.ok || !isJsonObject(parsed.value)) return fail(res, 400, 'the body must be a JSON object');
    const body = parsed.value;
    if (body.model !== MODEL_SERVER_MODEL) return send(res, 404, { error: { message: `The model '${String(body.model)}' does not exist; this server has ${MODEL_SERVER_MODEL}`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } });
    const metadata = isJsonObject(body.metadata) ? body.metadata : {};
    const caseId = typeof metadata.stockroom_case_id === 'string' ? metadata.stockroom_case_id : null;
    const weaknesses = typeof metadata.stockroom_weaknesses === 'string' ? metadata.stockroom_weaknesses : '';
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : 1024;
    let planner: HeuristicPlanner;
    let conversation: ReturnType<typeof fromChatMessages>;
    let tools: ReturnType<typeof fromChatTools>;
    try {
      planner = plannerFor(weaknesses);
      conversation = fromChatMessages(body.messages);
      tools = fromChatTools(body.tools);
    } catch (err) {
      return fail(res, 400, err instanceof Error ? err.message : String(err));
    }
    const script = caseId ? (dataset.mockScripts.get(caseId)?.turns as readonly ScriptTurn[] | undefined) : undefined;
    const model = new FakeModelClient({ planner, script, floatKeys: dataset.floatKeys });
    const r = await model.converse({ system: conversation.system, messages: conversation.messages, tools, maxTokens });
    const streamed = body.stream === true;
    const latency = options.latencyMs ?? 0;
    // Whole: the latency before the answer. Streamed: half before the first chunk, the rest spread
    // between the chunks, as a model server sends its tokens (the call takes as long either way).
    if (latency) await pause(streamed ? latency / 2 : latency);
    const completion: JsonValue = {
      id: `chatcmpl-stockroom-${++sequence}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: MODEL_SERVER_MODEL,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: r.text,
            refusal: null,
            ...(r.toolCalls.length > 0
              ? { tool_calls: r.toolCalls.map((c) => ({ id: c.toolUseId, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
              : {}),
          },
          logprobs: null,
          finish_reason: FINISH[r.stopReason],
        },
      ],
      usage: { prompt_tokens: r.inputTokens ?? 0, completion_tokens: r.outputTokens ?? 0, total_tokens: (r.inputTokens ?? 0) + (r.outputTokens ?? 0), prompt_tokens_details: { cached_tokens: 0 } },
    };
    if (body.stream !== true) return send(res, 200, completion);
    // Streamed as OpenAI streams it; the usage chunk only when the request asked for it.
    const includeUsage = isJsonObject(body.stream_options) && body.stream_options.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const events = chatChunkEvents(chatCompletionChunks(completion, { includeUsage }));
    const gap = latency ? latency / 2 / Math.max(1, events.length) : 0;
    for (const event of events) {
      if (res.destroyed) return;
      res.write(event);
      if (gap) await pause(gap);
    }
    res.end();
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      return send(res, 200, { object: 'list', data: [{ id: MODEL_SERVER_MODEL, object: 'model', created: 0, owned_by: 'stockroom' }] });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      completions(req, res).catch((err: unknown) => fail(res, 500, err instanceof Error ? err.message : String(err)));
      return;
    }
    fail(res, 404, `no route ${req.method} ${path}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    get requests() {
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The web-standard MCP endpoint behind the dashboard's /api/mcp route, one per web process.
 *
 * An initialize opens a session (Streamable HTTP, `Mcp-Session-Id`) with a server of its own, kept
 * in a SessionTable: bound to the caller that opened it (another caller's session id is answered 404
 * exactly like an unknown one, and so is an id from before this process started: the client sends
 * initialize again, as the specification says), a GET stream for the server's notifications (a
 * followed run's `notifications/resources/updated`, log messages), DELETE to end it, idle sessions
 * reaped (an open GET stream keeps a session only while it follows a run), and a bound on sessions per caller and in all. A session's end (DELETE, reaped, evicted)
 * closes its server, which releases every run it followed.
 *
 * A POST without a session id that is not an initialize is answered statelessly — a fresh server and
 * transport for that one request — for clients that never keep a session (scripts posting a
 * tools/call); such a request can follow nothing.
 *
 * Per-run state (restock ledger, legacy shard) lives in an environment of the caller's own — keyed
 * by principal and weakness flags — so no caller sees or wipes another's. The private reset tool is
 * not offered here, and writes pass the write gate the route hands in (refused, or governed by the
 * policy file).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '../../harness';
import { safeJsonParse } from '../../harness';
import type { Dataset } from '../../stockroom';
import { StockroomEnvironment } from '../../stockroom';
import { jsonRpcShapeProblem } from './json-rpc-shape';
import { releaseSettledJsonStreams } from './json-response-leak';
import { connectGuarded } from './request-guard';
import { SessionTable } from './session-table';
import { createStockroomServer } from './stockroom-server';
import { parseWeaknessesParam } from './weaknesses-param';
import type { WriteGate } from './write-gate';
import { followsResources, type ResourceSource } from './resources';
import { CallerTaints } from './caller-taint';

/** Callers' environments kept at once; the least recently used is dropped beyond it. */
export const MAX_CALLER_ENVIRONMENTS = 200;
/** Largest request body accepted. */
export const MAX_WEB_BODY_BYTES = 1_000_000;

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

/** Reads the `weaknesses` query parameter as a 400 response naming the parameter when it is bad. */
export function weaknessesOrResponse(url: URL): { ok: true; weaknesses: WeaknessFlag[] } | { ok: false; response: Response } {
  const parsed = parseWeaknessesParam(url);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    response: jsonResponse(400, { error: 'invalid_query_parameter', parameter: 'weaknesses', message: parsed.message, allowed: [...WEAKNESS_FLAGS] }),
  };
}

/** The body of a POST as one JSON-RPC message or batch, or the answer that refuses it. */
async function jsonRpcBody(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const tooLarge = () => ({ ok: false as const, response: jsonRpcError(413, -32600, `Request body over ${MAX_WEB_BODY_BYTES} bytes`) });
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_WEB_BODY_BYTES) return tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_WEB_BODY_BYTES) return tooLarge();
  const body = safeJsonParse(text);
  if (!body.ok) return { ok: false, response: jsonRpcError(400, -32700, `Parse error: ${body.error}`) };
  const shape = jsonRpcShapeProblem(body.value);
  if (shape !== null) return { ok: false, response: jsonRpcError(400, -32600, `Invalid Request: ${shape}`) };
  return { ok: true, value: body.value };
}

/** Who is calling, as far as the endpoint cares: a stable key for their state, and their write gate. */
export interface EndpointCaller {
  /** Separates callers' environments and owns their sessions (a user id, or the token's principal, with the tenant). */
  key: string;
  writes: WriteGate;
  /** The caller's runs, suites and golden sets as resources (scoped to their tenant). */
  resources?: ResourceSource;
}

interface WebSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
}

export interface WebEndpointOptions {
  /** A session unused this long (unless it follows a run and its GET stream is open) is reaped. */
  idleMs?: number;
  /** Sessions one caller may hold at once. */
  maxSessionsPerCaller?: number;
}

/** Serves MCP over web Requests for one dataset. */
export class WebMcpEndpoint {
  private readonly environments = new Map<string, StockroomEnvironment>();
  /** Each caller's taint (kept like their environments; the route hands a caller's view to their write gate). */
  readonly taints = new CallerTaints(MAX_CALLER_ENVIRONMENTS);
  private readonly sessions: SessionTable<WebSession>;

  constructor(
    private readonly loadDataset: () => Dataset,
    options: WebEndpointOptions = {},
  ) {
    this.sessions = new SessionTable<WebSession>({
      close: async ({ transport, server }) => {
        await transport.close();
        await server.close();
      },
      // A GET stream keeps a session only while it follows a run; an SDK client opens one regardless.
      follows: ({ server }) => followsResources(server),
      ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
      ...(options.maxSessionsPerCaller !== undefined ? { maxPerOwner: options.maxSessionsPerCaller } : {}),
    });
  }

  /** The caller's own environment for these flags (least recently used ones are dropped). */
  environmentFor(dataset: Dataset, weaknesses: readonly WeaknessFlag[], callerKey: string): StockroomEnvironment {
    const key = `${callerKey}\n${dataset.dir}\n${weaknesses.join(',')}`;
    let environment = this.environments.get(key);
    if (environment) {
      this.environments.delete(key);
    } else {
      environment = new StockroomEnvironment(dataset, weaknesses);
      if (this.environments.size >= MAX_CALLER_ENVIRONMENTS) {
        const first = this.environments.keys().next();
        if (!first.done) this.environments.delete(first.value);
      }
    }
    this.environments.set(key, environment);
    return environment;
  }

  /** One request (POST, GET or DELETE) of an authorized caller. */
  async handle(request: Request, caller: EndpointCaller): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) return this.inSession(sessionId, request, caller);
    if (request.method === 'GET' || request.method === 'DELETE') {
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header required; send initialize (POST) to open a session');
    }
    if (request.method !== 'POST') return this.methodNotAllowed();
    const param = weaknessesOrResponse(new URL(request.url));
    if (!param.ok) return param.response;
    const body = await jsonRpcBody(request);
    if (!body.ok) return body.response;
    let dataset: Dataset;
    try {
      dataset = this.loadDataset();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return jsonRpcError(500, -32603, `dataset unavailable: ${message}`);
    }
    if (isInitializeRequest(body.value)) return this.open(request, body.value, caller, dataset, param.weaknesses);
    return this.stateless(request, body.value, caller, dataset, param.weaknesses);
  }

  /** Sessions open now. */
  sessionCount(): number {
    return this.sessions.size();
  }

  /** Closes the sessions idle at `now` (the reaper's timer does this by itself); returns how many. */
  reapIdleSessions(now?: number): number {
    return this.sessions.reapIdle(now);
  }

  /** Ends every session (a process shutting down, or a test). */
  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  methodNotAllowed(): Response {
    return jsonRpcError(405, -32000, 'Method not allowed: use POST, GET or DELETE', { allow: 'GET, POST, DELETE' });
  }

  private async inSession(id: string, request: Request, caller: EndpointCaller): Promise<Response> {
    const session = this.sessions.use(id, caller.key);
    if (!session) return jsonRpcError(404, -32001, 'Session not found: it ended, or the server restarted; send initialize again');
    if (request.method === 'POST') {
      const body = await jsonRpcBody(request);
      if (!body.ok) return body.response;
      const response = await session.transport.handleRequest(request, { parsedBody: body.value });
      releaseSettledJsonStreams(session.transport);
      return response;
    }
    if (request.method === 'GET') return this.notificationStream(id, session, request);
    if (request.method === 'DELETE') return session.transport.handleRequest(request);
    return this.methodNotAllowed();
  }

  private serverFor(dataset: Dataset, weaknesses: readonly WeaknessFlag[], caller: EndpointCaller, session: boolean): Server {
    return createStockroomServer({
      dataset,
      weaknesses,
      environment: this.environmentFor(dataset, weaknesses, caller.key),
      writes: caller.writes,
      ...(caller.resources ? { resources: caller.resources } : {}),
      perSessionWeaknesses: true,
      // Notifications need a session's stream: a stateless JSON answer has none.
      logging: session,
      subscriptions: session,
    });
  }

  /** An initialize: a new session of the caller's, unless they hold too many. */
  private async open(request: Request, body: unknown, caller: EndpointCaller, dataset: Dataset, weaknesses: readonly WeaknessFlag[]): Promise<Response> {
    const refusal = this.sessions.admit(caller.key);
    if (refusal !== null) return jsonRpcError(429, -32000, `Too many sessions: ${refusal}`, { 'retry-after': String(this.sessions.retryAfterSeconds) });
    const id = randomUUID();
    const server = this.serverFor(dataset, weaknesses, caller, true);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessioninitialized: () => this.sessions.add(id, caller.key, { transport, server }),
      onsessionclosed: () => this.sessions.forget(id),
    });
    transport.onclose = () => this.sessions.forget(id);
    await connectGuarded(server, transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    releaseSettledJsonStreams(transport);
    // Refused before a session began (a bad Accept header, say): nothing to keep.
    if (!response.ok) await transport.close();
    return response;
  }

  /** A request outside any session: a fresh server and transport, closed once the JSON answer is ready. */
  private async stateless(request: Request, body: unknown, caller: EndpointCaller, dataset: Dataset, weaknesses: readonly WeaknessFlag[]): Promise<Response> {
    const server = this.serverFor(dataset, weaknesses, caller, false);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await connectGuarded(server, transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await transport.close();
      await server.close();
    }
  }

  /**
   * The session's GET stream. While it is open, a session that follows a run is not idle; it ends
   * when the client leaves (the request is aborted, or the body cancelled) or the session ends.
   */
  private async notificationStream(id: string, session: WebSession, request: Request): Promise<Response> {
    const response = await session.transport.handleRequest(request);
    if (!response.ok || !response.body) return response;
    const release = this.sessions.hold(id);
    const reader = response.body.getReader();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      release();
      request.signal.removeEventListener('abort', leave);
    };
    // Cancelling our reader cancels the transport's stream, which forgets it only if it is still this one.
    function leave() {
      end();
      void reader.cancel().catch(() => undefined);
    }
    if (request.signal.aborted) leave();
    else request.signal.addEventListener('abort', leave, { once: true });
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            end();
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        } catch (err) {
          end();
          controller.error(err);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }
}

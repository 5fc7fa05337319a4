/**
 * Streamable HTTP serving of the Stockroom server from a plain node:http server: one MCP session per
 * client (its own server and environment, so per-run state never mixes between clients), JSON
 * responses, Host/Origin checks against DNS rebinding, and a close() that ends every session.
 * Sessions are kept in a SessionTable (session-table.ts): bound to the client that opened it — its
 * credentials (the Authorization header), or its address when it sent none — so another client's
 * session id is answered as not found; at most MAX_SESSIONS_PER_CLIENT per client, past which its
 * initialize is refused with 429 (observed before: 256 sessions from one client in 8 s, and every
 * other client's live session answered 404); idle ones reaped on a timer.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { WeaknessFlag } from '../../harness';
import { safeJsonParse } from '../../harness';
import type { Dataset } from '../../stockroom';
import { defaultAllowedHostnames, hostRefusal } from './host-validation';
import { jsonRpcShapeProblem } from './json-rpc-shape';
import { releaseSettledJsonStreams } from './json-response-leak';
import { connectGuarded } from './request-guard';
import { idleCompaction } from './idle-compaction';
import { SessionTable } from './session-table';
import { createStockroomServer } from './stockroom-server';
import { parseWeaknessesParam } from './weaknesses-param';
import type { WriteGate } from './write-gate';

export { MAX_SESSIONS, MAX_SESSIONS_PER_CLIENT, REAP_INTERVAL_MS, SESSION_IDLE_MS } from './session-table';

/** Largest request body accepted (a tools/call is a few hundred bytes). */
export const MAX_BODY_BYTES = 1_000_000;
/** Grace given to in-flight requests at shutdown before connections are cut. */
export const SHUTDOWN_GRACE_MS = 2_000;

export interface HttpServerOptions {
  dataset: Dataset;
  weaknesses: readonly WeaknessFlag[];
  /** Bind address; loopback unless told otherwise. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The endpoint path. */
  path?: string;
  /** Hostnames accepted in Host/Origin; defaults to the loopback names plus the bind address. */
  allowedHostnames?: readonly string[];
  /** Offer the private reset tool (only the harness's own in-process server does). */
  offerReset?: boolean;
  /** The write gate of a new session (a governed gate journals under the session's id). */
  writesFor?: (sessionId: string) => WriteGate;
  /** Let a client choose its session's weakness flags with `?weaknesses=` on initialize. */
  perSessionWeaknesses?: boolean;
  /** Idle time after which a session is reaped. */
  sessionIdleMs?: number;
  /** Serve the conformance suite's test tools too (testing only). */
  conformanceTools?: boolean;
  /** Sessions one client may hold (default MAX_SESSIONS_PER_CLIENT). */
  maxSessionsPerClient?: number;
  log?: (message: string) => void;
}

export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: string;
  readonly port: number;
  sessionCount(): number;
  /**
   * Closes sessions idle longer than the limit as of `now` (default: the clock's now; the timer does
   * this on its own). A later `now` reaps as if that much time had passed, for tests.
   */
  reapIdleSessions(now?: number): number;
  /** Full collections run since the server went quiet after sessions were released. */
  compactions(): number;
  /** Stops accepting, closes every session, and resolves when the socket is closed. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/**
 * Who is calling: a digest of the credentials they present, else their address. Digested so the
 * server never keeps a bearer token in memory longer than the request.
 */
export function clientKey(req: IncomingMessage): string {
  const credentials = req.headers.authorization;
  if (credentials) return `credentials:${createHash('sha256').update(credentials).digest('hex')}`;
  return `address:${req.socket.remoteAddress ?? 'unknown'}`;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The body as text, or null once it passes the limit (the rest is drained, not read). */
function readBody(req: IncomingMessage): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Keep reading (and dropping) so the 413 reaches the client instead of a reset connection.
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the server and resolves once it listens. */
export async function startStockroomHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const allowed = options.allowedHostnames ?? defaultAllowedHostnames(host);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  // Once its sessions have gone and it is quiet, the server hands back the memory their load grew.
  const compaction = idleCompaction();
  const sessions = new SessionTable<Session>({
    close: async ({ transport, server }) => {
      await transport.close();
      await server.close();
    },
    released: () => compaction.released(),
    ...(options.sessionIdleMs !== undefined ? { idleMs: options.sessionIdleMs } : {}),
    ...(options.maxSessionsPerClient !== undefined ? { maxPerOwner: options.maxSessionsPerClient } : {}),
  });

  const openSession = async (weaknesses: readonly WeaknessFlag[], owner: string): Promise<StreamableHTTPServerTransport> => {
    const id = randomUUID();
    const server = createStockroomServer({
      dataset: options.dataset,
      weaknesses,
      offerReset: options.offerReset === true,
      perSessionWeaknesses: options.perSessionWeaknesses === true,
      conformanceTools: options.conformanceTools === true,
      ...(options.writesFor ? { writes: options.writesFor(id) } : {}),
      log,
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessioninitialized: () => {
        sessions.add(id, owner, { transport, server });
      },
      onsessionclosed: () => {
        sessions.forget(id);
      },
    });
    transport.onclose = () => {
      sessions.forget(id);
    };
    await connectGuarded(server, transport);
    return transport;
  };

  /** The session's weakness flags from `?weaknesses=`, or a refusal when the server's are fixed. */
  const sessionWeaknesses = (url: URL): { ok: true; weaknesses: readonly WeaknessFlag[] } | { ok: false; message: string } => {
    if (!url.searchParams.has('weaknesses')) return { ok: true, weaknesses: options.weaknesses };
    const param = parseWeaknessesParam(url);
    if (!param.ok) return { ok: false, message: param.message };
    if (options.perSessionWeaknesses) return { ok: true, weaknesses: param.weaknesses };
    const fixed = [...options.weaknesses].sort();
    if (param.weaknesses.join(',') === fixed.join(',')) return { ok: true, weaknesses: fixed };
    return {
      ok: false,
      message: `this server's weakness flags are fixed at [${fixed.join(', ')}] and cannot be [${param.weaknesses.join(', ')}]; start it with --session-weaknesses to let clients choose`,
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    compaction.active();
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
    const refusal = hostRefusal(req.headers.host, req.headers.origin, allowed);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);

    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const owner = clientKey(req);
    // Another client's session is answered exactly like one that does not exist.
    const session = sessionId ? sessions.use(sessionId, owner) : undefined;
    if (sessionId && !session) return sendJsonRpcError(res, 404, -32001, 'Session not found');

    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text === null) {
        return sendJsonRpcError(res, 413, -32600, `Request body over ${MAX_BODY_BYTES} bytes`, { connection: 'close' });
      }
      const parsed = safeJsonParse(text);
      if (!parsed.ok) return sendJsonRpcError(res, 400, -32700, `Parse error: ${parsed.error}`);
      const shape = jsonRpcShapeProblem(parsed.value);
      if (shape !== null) return sendJsonRpcError(res, 400, -32600, `Invalid Request: ${shape}`);
      if (session) {
        await session.transport.handleRequest(req, res, parsed.value);
        releaseSettledJsonStreams(session.transport);
        return;
      }
      if (!isInitializeRequest(parsed.value)) {
        return sendJsonRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; send initialize first');
      }
      const chosen = sessionWeaknesses(url);
      if (!chosen.ok) return sendJsonRpcError(res, 400, -32602, `Invalid params: ${chosen.message}`);
      const full = sessions.admit(owner);
      if (full !== null) {
        return sendJsonRpcError(res, 429, -32000, `Too many sessions: ${full}`, { 'retry-after': String(sessions.retryAfterSeconds) });
      }
      const transport = await openSession(chosen.weaknesses, owner);
      await transport.handleRequest(req, res, parsed.value);
      releaseSettledJsonStreams(transport);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session || !sessionId) return sendJsonRpcError(res, 400, -32000, 'Bad Request: mcp-session-id header required');
      // A GET stream does not keep the session from being reaped: nothing here can be followed, so
      // it only ever carries what the client's own requests caused (log messages of its writes).
      return session.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return sendJsonRpcError(res, 405, -32000, 'Method not allowed');
  };

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`stockroom MCP HTTP: request failed: ${err instanceof Error ? err.stack : String(err)}`);
      sendJsonRpcError(res, 500, -32603, 'Internal error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    sessionCount: () => sessions.size(),
    reapIdleSessions: (now) => sessions.reapIdle(now),
    compactions: () => compaction.count(),
    close: () => {
      closing ??= (async () => {
        compaction.stop();
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await sessions.closeAll();
        httpServer.closeIdleConnections();
        const grace = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await stopped;
        clearTimeout(grace);
      })();
      return closing;
    },
  };
}

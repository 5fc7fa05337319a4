/**
 * Streamable HTTP serving of the Stockroom server from a plain node:http server: one MCP session per
 * client (its own server and environment, so per-run state never mixes between clients), JSON
 * responses, Host/Origin checks against DNS rebinding, and a close() that ends every session.
 * Idle sessions are reaped on a timer. A session belongs to the client that opened it — its
 * credentials (the Authorization header), or its address when it sent none — and only that client
 * may use it: another client's session id is answered as not found. Each client holds at most
 * MAX_SESSIONS_PER_CLIENT sessions; past that its initialize is refused with 429, so one client
 * opening sessions in a loop is turned away without evicting anyone else's (observed before: 256
 * sessions from one client in 8 s, and every other client's live session answered 404).
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
import { createStockroomServer } from './stockroom-server';
import { parseWeaknessesParam } from './weaknesses-param';
import type { WriteGate } from './write-gate';

/** Largest request body accepted (a tools/call is a few hundred bytes). */
export const MAX_BODY_BYTES = 1_000_000;
/** Open sessions at once; beyond it the biggest holder's least recently used session is closed. */
export const MAX_SESSIONS = 256;
/** Sessions one client (one credential, or one address without credentials) may hold at once. */
export const MAX_SESSIONS_PER_CLIENT = 32;
/** A session unused this long is closed by the reaper (clients such as the Inspector never DELETE). */
export const SESSION_IDLE_MS = 5 * 60_000;
/** How often the reaper looks for idle sessions, at most (a shorter idle limit checks more often). */
export const REAP_INTERVAL_MS = 30_000;
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
  /** Closes sessions idle longer than the limit now (the timer does this on its own). */
  reapIdleSessions(): number;
  /** Stops accepting, closes every session, and resolves when the socket is closed. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** Who opened it (see clientKey); nobody else may use it. */
  owner: string;
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
  const sessions = new Map<string, Session>();

  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;

  const closeSession = (id: string): void => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.transport
      .close()
      .then(() => session.server.close())
      .catch(() => undefined);
  };

  const reapIdleSessions = (): number => {
    const cutoff = Date.now() - idleMs;
    const idle = [...sessions].filter(([, s]) => s.lastUsed < cutoff).map(([id]) => id);
    idle.forEach(closeSession);
    return idle.length;
  };
  const reaper = setInterval(reapIdleSessions, Math.max(1_000, Math.min(REAP_INTERVAL_MS, idleMs)));
  reaper.unref();

  /** The least recently used session among `candidates`. */
  const oldest = (candidates: Iterable<[string, Session]>): string | undefined => {
    let found: [string, number] | undefined;
    for (const [id, s] of candidates) if (!found || s.lastUsed < found[1]) found = [id, s.lastUsed];
    return found?.[0];
  };

  const perClient = options.maxSessionsPerClient ?? MAX_SESSIONS_PER_CLIENT;
  const heldBy = (owner: string): [string, Session][] => [...sessions].filter(([, s]) => s.owner === owner);

  /**
   * Makes room for `owner`'s new session, or says why not: a client at its own cap is refused; a
   * full server closes the least recently used session of whoever holds the most.
   */
  const makeRoom = (owner: string): string | null => {
    const held = heldBy(owner).length;
    if (held >= perClient) return `this client already holds ${held} sessions (at most ${perClient}); end one with DELETE or wait until an idle one is reaped`;
    if (sessions.size >= MAX_SESSIONS) {
      const counts = new Map<string, number>();
      for (const s of sessions.values()) counts.set(s.owner, (counts.get(s.owner) ?? 0) + 1);
      const biggest = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
      const id = biggest === undefined ? undefined : oldest(heldBy(biggest));
      if (id) closeSession(id);
    }
    return null;
  };

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
        sessions.set(id, { transport, server, lastUsed: Date.now(), owner });
      },
      onsessionclosed: () => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
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
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
    const refusal = hostRefusal(req.headers.host, req.headers.origin, allowed);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);

    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const owner = clientKey(req);
    const found = sessionId ? sessions.get(sessionId) : undefined;
    // Another client's session is answered exactly like one that does not exist.
    const session = found && found.owner === owner ? found : undefined;
    if (sessionId && !session) return sendJsonRpcError(res, 404, -32001, 'Session not found');
    if (session) session.lastUsed = Date.now();

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
      reapIdleSessions();
      const full = makeRoom(owner);
      if (full !== null) {
        return sendJsonRpcError(res, 429, -32000, `Too many sessions: ${full}`, { 'retry-after': String(Math.ceil(Math.min(idleMs, REAP_INTERVAL_MS) / 1000)) });
      }
      const transport = await openSession(chosen.weaknesses, owner);
      await transport.handleRequest(req, res, parsed.value);
      releaseSettledJsonStreams(transport);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) return sendJsonRpcError(res, 400, -32000, 'Bad Request: mcp-session-id header required');
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
    sessionCount: () => sessions.size,
    reapIdleSessions,
    close: () => {
      closing ??= (async () => {
        clearInterval(reaper);
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await Promise.allSettled([...sessions.values()].map(({ transport, server }) => transport.close().then(() => server.close())));
        sessions.clear();
        httpServer.closeIdleConnections();
        const grace = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await stopped;
        clearTimeout(grace);
      })();
      return closing;
    },
  };
}

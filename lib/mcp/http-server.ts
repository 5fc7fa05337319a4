/**
 * Streamable HTTP serving of the Stockroom server from a plain node:http server: one MCP session per
 * client (its own server and environment, so per-run state never mixes between clients), JSON
 * responses, Host/Origin checks against DNS rebinding, and a close() that ends every session.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { WeaknessFlag } from '../harness/config';
import { safeJsonParse } from '../harness/json';
import type { Dataset } from '../stockroom/dataset/types';
import { defaultAllowedHostnames, hostRefusal } from './host-validation';
import { createStockroomServer } from './stockroom-server';

/** Largest request body accepted (a tools/call is a few hundred bytes). */
export const MAX_BODY_BYTES = 1_000_000;
/** Open sessions at once; a client that never closes cannot exhaust memory. */
export const MAX_SESSIONS = 64;
/** A session unused this long is closed when a new one opens (clients such as the Inspector never DELETE). */
export const SESSION_IDLE_MS = 15 * 60_000;
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
  log?: (message: string) => void;
}

export interface RunningHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: string;
  readonly port: number;
  sessionCount(): number;
  /** Stops accepting, closes every session, and resolves when the socket is closed. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
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

  const closeIdleSessions = (): void => {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, session] of sessions) {
      if (session.lastUsed >= cutoff) continue;
      sessions.delete(id);
      void session.transport.close().then(() => session.server.close());
    }
  };

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = createStockroomServer({ dataset: options.dataset, weaknesses: options.weaknesses, log });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
    const refusal = hostRefusal(req.headers.host, req.headers.origin, allowed);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);

    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && !session) return sendJsonRpcError(res, 404, -32001, 'Session not found');
    if (session) session.lastUsed = Date.now();

    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text === null) return sendJsonRpcError(res, 413, -32600, `Request body over ${MAX_BODY_BYTES} bytes`);
      const parsed = safeJsonParse(text);
      if (!parsed.ok) return sendJsonRpcError(res, 400, -32700, `Parse error: ${parsed.error}`);
      if (session) return session.transport.handleRequest(req, res, parsed.value);
      if (!isInitializeRequest(parsed.value)) {
        return sendJsonRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; send initialize first');
      }
      closeIdleSessions();
      if (sessions.size >= MAX_SESSIONS) return sendJsonRpcError(res, 503, -32000, 'Too many open sessions');
      const transport = await openSession();
      return transport.handleRequest(req, res, parsed.value);
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
    close: () => {
      closing ??= (async () => {
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

/**
 * A third-party remote MCP server protected by OAuth 2.1, for tests, built from the MCP SDK's own
 * server-side auth (mcpAuthRouter: RFC 8414 metadata, dynamic registration, authorize, token;
 * requireBearerAuth: 401 with `WWW-Authenticate: Bearer resource_metadata=…`, audience checked) and
 * its in-memory demo provider, whose authorize step approves at once (the "user" always consents).
 * Listens on 127.0.0.1; one tool, `whoami`. A session it does not know (or has forgotten, as a server
 * does after a restart) is answered 404, as the spec says.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';

export interface ProtectedServer {
  url: string;
  /** Forgets every session (as a restarted server would): their next request is answered 404. */
  forgetSessions(): void;
  /** What was seen on the MCP endpoint: the Authorization header of each initialize, and how many requests came without one. */
  seen(): { initializeAuthorizations: string[]; withoutAuthorization: number };
  stop(): Promise<void>;
}

export async function startOAuthProtectedServer(): Promise<ProtectedServer> {
  const app = express();
  const http: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  const provider = new DemoInMemoryAuthProvider((resource) => resource?.toString() === mcpUrl.toString());
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const initializeAuthorizations: string[] = [];
  let withoutAuthorization = 0;
  app.all(
    '/mcp',
    express.json(),
    (req, _res, next) => {
      const authorization = req.headers.authorization;
      if (!authorization) withoutAuthorization += 1;
      else if ((req.body as { method?: unknown } | undefined)?.method === 'initialize') initializeAuthorizations.push(authorization);
      next();
    },
    requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl), expectedResource: mcpUrl }),
    async (req, res) => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (typeof id === 'string' && !transport) {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      if (!transport) {
        const t = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, t) });
        const server = new McpServer({ name: 'guarded', version: '1.0.0' });
        server.registerTool('whoami', { description: 'Says which client the token was issued to', inputSchema: {} }, (_args, extra) => ({
          content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'unknown'}` }],
        }));
        await server.connect(t);
        transport = t;
      }
      await transport.handleRequest(req, res, req.body);
    },
  );
  return {
    url: mcpUrl.toString(),
    forgetSessions: () => {
      for (const t of sessions.values()) void t.close();
      sessions.clear();
    },
    seen: () => ({ initializeAuthorizations: [...initializeAuthorizations], withoutAuthorization }),
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

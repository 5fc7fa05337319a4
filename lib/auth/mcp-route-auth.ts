import 'server-only';
/**
 * Who may call the dashboard's /api/mcp endpoint: an MCP client presenting the configured bearer
 * token (STOCKROOM_MCP_TOKEN), or a signed-in dashboard user with the operator role. The tools
 * write (restock requests), so an anonymous caller is refused like at every other mutating route.
 */
import { timingSafeEqual } from 'node:crypto';
import { currentPrincipal, holdsRole } from './authorize';
import { DEFAULT_TENANT } from '../governance/principal';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An authorized caller: how they proved it, who they are, and the tenant they act in. */
export type McpCaller =
  | { ok: true; via: 'token' | 'session'; subject: string; tenant: string }
  | { ok: false; status: 401 | 403; message: string };

/** Who a token holder acts as (the token is the deployment's, for the bundled tenant). */
export const TOKEN_SUBJECT = 'mcp-token';

export async function authorizeMcpRequest(request: Request, token = process.env.STOCKROOM_MCP_TOKEN): Promise<McpCaller> {
  const header = request.headers.get('authorization');
  if (header !== null) {
    const given = /^Bearer (.+)$/i.exec(header)?.[1];
    if (token && given && sameSecret(given, token)) return { ok: true, via: 'token', subject: TOKEN_SUBJECT, tenant: DEFAULT_TENANT };
    return { ok: false, status: 401, message: 'the bearer token is not valid for this MCP endpoint' };
  }
  // No token: only a dashboard session can authorise, and a request without cookies has none.
  if (!request.headers.get('cookie')) {
    return { ok: false, status: 401, message: 'sign in, or send Authorization: Bearer <STOCKROOM_MCP_TOKEN>' };
  }
  const principal = await currentPrincipal(request.headers);
  if (!principal) return { ok: false, status: 401, message: 'the session is not valid; sign in again' };
  if (!holdsRole(principal.memberships, 'operator')) return { ok: false, status: 403, message: 'calling the tools needs the operator role' };
  return { ok: true, via: 'session', subject: principal.id, tenant: principal.tenant };
}

/** The refusal as an HTTP answer an MCP client understands. */
export function mcpAuthRefusal(caller: Extract<McpCaller, { ok: false }>): Response {
  return Response.json(
    { jsonrpc: '2.0', id: null, error: { code: -32001, message: `Unauthorized: ${caller.message}` } },
    { status: caller.status, headers: caller.status === 401 ? { 'www-authenticate': 'Bearer realm="stockroom-mcp"' } : {} },
  );
}

import 'server-only';
/**
 * Who may call the dashboard's /api/mcp endpoint: an MCP client presenting the configured bearer
 * token (STOCKROOM_MCP_TOKEN), or a signed-in dashboard user with the operator role. The tools
 * write (restock requests), so an anonymous caller is refused like at every other mutating route.
 */
import { timingSafeEqual } from 'node:crypto';
import { currentPrincipal, holdsRole } from './authorize';
import { DEFAULT_TENANT } from '../governance';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An authorized caller: how they proved it, who they are, and the tenant they act in. */
export type McpCaller =
  | { ok: true; via: 'token' | 'session' | 'oauth'; subject: string; tenant: string }
  | { ok: false; status: 401 | 403; message: string; error?: 'invalid_token' | 'insufficient_scope' };

/** Checks a bearer token that is not the static one (an OAuth access token), when the route accepts those. */
export type OAuthTokenCheck = (token: string) => Promise<McpCaller>;

/** Who a token holder acts as (the token is the deployment's, for the bundled tenant). */
export const TOKEN_SUBJECT = 'mcp-token';

export async function authorizeMcpRequest(request: Request, token = process.env.STOCKROOM_MCP_TOKEN, oauth?: OAuthTokenCheck): Promise<McpCaller> {
  const header = request.headers.get('authorization');
  if (header !== null) {
    const given = /^Bearer (.+)$/i.exec(header)?.[1];
    if (token && given && sameSecret(given, token)) return { ok: true, via: 'token', subject: TOKEN_SUBJECT, tenant: DEFAULT_TENANT };
    // Not the scripts' static token: an OAuth access token for this resource, when the route takes those.
    if (given && oauth) return oauth(given);
    return { ok: false, status: 401, message: 'the bearer token is not valid for this MCP endpoint', error: 'invalid_token' };
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

/**
 * The refusal as an HTTP answer an MCP client understands; `challenge` builds the 401's
 * `WWW-Authenticate` (RFC 9728: it points to the resource's metadata, so a client can find the
 * authorization server).
 */
export function mcpAuthRefusal(
  caller: Extract<McpCaller, { ok: false }>,
  challenge: (error?: { code: 'invalid_token' | 'insufficient_scope'; description: string }) => string = () => 'Bearer realm="stockroom-mcp"',
): Response {
  return Response.json(
    { jsonrpc: '2.0', id: null, error: { code: -32001, message: `Unauthorized: ${caller.message}` } },
    {
      status: caller.status,
      // A 401, and a 403 for a token short of a scope (RFC 6750 §3.1), carry the challenge.
      headers:
        caller.status === 401 || caller.error === 'insufficient_scope'
          ? { 'www-authenticate': challenge(caller.error ? { code: caller.error, description: caller.message } : undefined) }
          : {},
    },
  );
}

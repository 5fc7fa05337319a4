/**
 * Where an authorization server sends the operator's browser back after they approved the
 * dashboard's access to a remote tool server (OAuth 2.1 authorization code flow with PKCE). The
 * `state` must be one this tenant's authorization started (else nothing happens); the code is
 * exchanged for tokens through the MCP SDK's client auth helpers and stored sealed for the tenant.
 * Answers with a redirect to the Tools page saying how it went (no token ever reaches the browser).
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { z } from 'zod';
import { currentPrincipal, holdsRole } from '@/lib/auth/authorize';
import { serverOfPendingState, tenantOAuthProvider } from '@/lib/db/auth/mcp-oauth';
import { dashboardUrl, loadMcpServers, resolveServer } from '@/lib/mcp/client/server-config';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const CallbackQuery = z.object({
  state: z.string().min(8).max(200),
  code: z.string().min(1).max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(500).optional(),
});

function back(result: { authorized?: string; error?: string }): Response {
  const to = new URL('/tools', dashboardUrl());
  if (result.authorized) to.searchParams.set('authorized', result.authorized);
  if (result.error) to.searchParams.set('oauth_error', result.error.slice(0, 300));
  return Response.redirect(to, 303);
}

export async function GET(request: Request): Promise<Response> {
  const principal = await currentPrincipal(request.headers);
  // Like every route: no session, no answer (the authorization is started again once signed in).
  if (!principal) return Response.json({ ok: false, code: 'unauthenticated', error: 'Sign in, then authorize the tool server again from the Tools page.' }, { status: 401 });
  if (!holdsRole(principal.memberships, 'operator', principal.tenant)) return back({ error: 'authorizing a tool server needs the operator role' });
  const query = CallbackQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return back({ error: `the authorization server's answer is not valid (${query.error.issues[0]?.path.join('.') ?? 'query'})` });
  const serverId = await serverOfPendingState(principal.tenant, query.data.state);
  if (!serverId) return back({ error: 'no authorization of this tenant is waiting for this answer (it may have finished or been replaced)' });
  if (query.data.error || !query.data.code) return back({ error: `${serverId}: the authorization server said ${query.data.error ?? 'no code'}${query.data.error_description ? ` (${query.data.error_description})` : ''}` });
  try {
    const server = resolveServer(loadMcpServers(), serverId);
    if (server.kind !== 'http') return back({ error: `${serverId} is not a remote server` });
    const provider = tenantOAuthProvider(principal.tenant, server, principal.email);
    const outcome = await auth(provider, { serverUrl: server.url, authorizationCode: query.data.code });
    return outcome === 'AUTHORIZED' ? back({ authorized: serverId }) : back({ error: `${serverId}: the code was not accepted` });
  } catch (err) {
    return back({ error: `${serverId}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}` });
  }
}

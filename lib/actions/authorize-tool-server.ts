'use server';
/**
 * Starts (or completes without a person, e.g. with a refresh token or client credentials) the OAuth
 * 2.1 authorization of a configured remote tool server for the caller's tenant, through the MCP
 * SDK's client auth helpers: discovery from the server's 401 (RFC 9728 resource metadata),
 * dynamic client registration where offered, authorization code with PKCE. Returns the URL to
 * send the operator's browser to, or that the server is authorized already. Operators only.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { InvalidInputError } from '../db/core/errors';
import { tenantOAuthProvider } from '../db/auth/mcp-oauth';
import { loadMcpServers, resolveServer } from '../mcp/client/server-config';
import { RefreshToolServersInputSchema } from '../schemas/tool-servers';
import { safeAction } from '../boundary/safe-action';

export const authorizeToolServerAction = safeAction({
  name: 'authorizeToolServer',
  schema: RefreshToolServersInputSchema.required(),
  role: 'operator',
  handler: async ({ serverId }, { principal }): Promise<{ authorized: true } | { authorized: false; authorizationUrl: string }> => {
    const servers = loadMcpServers();
    if (!servers.some((s) => s.id === serverId)) throw new InvalidInputError('serverId', `no tool server '${serverId}' is configured`);
    const server = resolveServer(servers, serverId);
    if (server.kind !== 'http') throw new InvalidInputError('serverId', `tool server '${serverId}' runs as a command; only remote (HTTP) servers are authorized with OAuth`);
    let redirect: URL | undefined;
    const provider = tenantOAuthProvider(principal.tenant, server, principal.email, (url) => {
      redirect = url;
    });
    const outcome = await auth(provider, { serverUrl: server.url });
    if (outcome === 'AUTHORIZED') return { authorized: true };
    if (!redirect) throw new Error('the authorization server gave no authorization URL');
    // Only an http(s) URL is handed to the browser (never a javascript: or data: one a server might send).
    if (!/^https?:$/.test(redirect.protocol)) throw new Error(`the authorization URL of '${serverId}' is not http(s)`);
    return { authorized: false, authorizationUrl: redirect.toString() };
  },
});

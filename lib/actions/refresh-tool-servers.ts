'use server';
/**
 * Refreshes the Tools page's cache for the caller's tenant: connects to each configured tool server
 * (or the one named), lists its tools within the refresh limit, and stores what it found or why it
 * could not. Operators only: it spawns processes and opens connections, which a page view never does.
 */
import { revalidatePath } from 'next/cache';
import { InvalidInputError } from '../db/core/errors';
import { saveToolServerListings } from '../db/auth/tool-server-listings';
import { listConfiguredServerTools } from '../mcp/client/list-server-tools';
import { tenantOAuthProvider } from '../db/auth/mcp-oauth';
import { loadMcpServers, resolveServer } from '../mcp/client/server-config';
import { RefreshToolServersInputSchema } from '../schemas/tool-servers';
import { safeAction } from '../boundary/safe-action';

export const refreshToolServersAction = safeAction({
  name: 'refreshToolServers',
  schema: RefreshToolServersInputSchema,
  role: 'operator',
  handler: async ({ serverId }, { principal }) => {
    const configured = loadMcpServers();
    const servers = serverId === undefined ? configured : configured.filter((s) => s.id === serverId);
    if (serverId !== undefined && servers.length === 0) throw new InvalidInputError('serverId', `no tool server '${serverId}' is configured`);
    // A remote server that asks for OAuth is listed with the tenant's stored token (never interactively here).
    const authFor = (id: string) => {
      const server = resolveServer(configured, id);
      return server.kind === 'http' ? tenantOAuthProvider(principal.tenant, server, principal.email) : undefined;
    };
    const listed = await listConfiguredServerTools(servers, { authFor });
    await saveToolServerListings(
      principal.tenant,
      principal.email,
      listed.map((l) => ({ serverId: l.server.id, listing: l.error === null ? { serverInfo: l.serverInfo, tools: l.tools } : null, error: l.error, durationMs: l.durationMs, protectedResource: l.protectedResource })),
    );
    revalidatePath('/tools');
    return { refreshed: listed.map((l) => ({ serverId: l.server.id, tools: l.tools.length, error: l.error, durationMs: Math.round(l.durationMs) })) };
  },
});

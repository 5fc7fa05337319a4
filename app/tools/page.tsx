/**
 * The Tools page: every tool server configured in config/mcp-servers.json (or STOCKROOM_MCP_SERVERS),
 * and the tools each listed when an operator of this tenant last refreshed it — one row per tool,
 * schemas as collapsible trees, a filter box. Loading the page spawns and connects to nothing
 * (observed before: 7.2 s for one load, 27–35 s with six at once); the refresh does, within a
 * time limit. Servers come from the deployment's file only; nothing the browser sends picks a
 * command or a URL, and no header value, variable value or URL query value is shown.
 */
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { oauthStatuses } from '@/lib/db/auth/mcp-oauth';
import { getToolServerListings } from '@/lib/db/auth/tool-server-listings';
import { REFRESH_LIMIT_MS } from '@/lib/mcp/client/list-server-tools';
import { loadMcpServers, summarise } from '@/lib/mcp/client/server-config';
import { ToolsBrowser, type ServerView } from './_components/tools-browser';

export const dynamic = 'force-dynamic';

export default async function ToolsPage({ searchParams }: { searchParams: Promise<{ authorized?: string; oauth_error?: string }> }) {
  const principal = await requireUser();
  const [cachedListings, statuses] = await Promise.all([getToolServerListings(principal.tenant), oauthStatuses(principal.tenant)]);
  const listings = new Map(cachedListings.map((l) => [l.serverId, l]));
  const oauth = new Map(statuses.map((s) => [s.serverId, s]));
  const servers: ServerView[] = loadMcpServers().map((entry) => ({ server: summarise(entry), cached: listings.get(entry.id) ?? null, oauth: oauth.get(entry.id) ?? null }));
  const { authorized, oauth_error: oauthError } = await searchParams;
  return (
    <main className="page">
      <h1>Tools</h1>
      <p className="lede">
        The tool servers this deployment offers (config/mcp-servers.json) and what each listed when it was last refreshed. A run can use any of
        them; the policy file, not a tool&apos;s annotations, decides which calls need approval.
      </p>
      {typeof authorized === 'string' ? (
        <p className="alert info" role="status">
          {authorized} is authorized for this tenant; runs and refreshes now use its token.
        </p>
      ) : null}
      {typeof oauthError === 'string' ? (
        <p className="alert" role="alert">
          Authorization did not complete: {oauthError}
        </p>
      ) : null}
      {servers.length === 0 ? <p className="panel">No tool servers are configured.</p> : null}
      <ToolsBrowser servers={servers} canRefresh={holdsRole(principal.memberships, 'operator', principal.tenant)} limitS={REFRESH_LIMIT_MS / 1000} />
    </main>
  );
}

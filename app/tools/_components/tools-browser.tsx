'use client';
/**
 * The Tools page's table: one row per tool across the configured servers, filtered by a box
 * (server, name, title, description), each schema a collapsible tree; an operator refreshes the
 * cached listings (every server, or one) from here.
 */
import { useRouter } from 'next/navigation';
import { useMemo, useState, useTransition } from 'react';
import { JsonTree } from '@/components/json-tree';
import type { OAuthStatusDto } from '@/lib/db/auth/mcp-oauth';
import type { ToolServerListingDto } from '@/lib/db/auth/tool-server-listings';
import { authorizeToolServerAction } from '@/lib/actions/authorize-tool-server';
import type { McpServerSummary } from '@/lib/mcp/client/server-config';
import { authorizationOffer } from '@/lib/mcp/client/oauth/authorization-offer';
import { refreshToolServersAction } from '@/lib/actions/refresh-tool-servers';

export interface ServerView {
  server: McpServerSummary;
  cached: ToolServerListingDto | null;
  oauth: OAuthStatusDto | null;
}

/** Starts OAuth for a remote server: the browser goes to its authorization server, which sends it back to the dashboard. */
function AuthorizeButton({ serverId }: { serverId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span>
      <button
        type="button"
        className="small secondary"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const res = await authorizeToolServerAction({ serverId });
            if (!res.ok) return setMessage(res.error);
            if (res.data.authorized) {
              setMessage('authorized');
              router.refresh();
            } else window.location.assign(res.data.authorizationUrl);
          })
        }
      >
        {pending ? 'Authorizing…' : 'Authorize'}
      </button>
      {message ? (
        <span className="small muted" role="status">
          {' '}
          {message}
        </span>
      ) : null}
    </span>
  );
}

function OAuthState({ view, canRefresh }: { view: ServerView; canRefresh: boolean }) {
  const status = view.oauth;
  // Only a server that publishes protected-resource metadata (found at its last refresh) can be authorized here.
  const offer = authorizationOffer(view.server.oauth, view.cached?.protectedResource, status?.authorized === true);
  if (!offer.showState) return null;
  return (
    <span className="small">
      {' '}
      · OAuth ({view.server.oauth === 'client_credentials' ? 'client credentials from the environment' : 'an operator authorizes'}):{' '}
      {status?.authorized ? `token held${status.expiresAt ? ` until ${status.expiresAt.replace('T', ' ').slice(0, 16)} UTC` : ''}, set by ${status.updatedBy}` : 'no token'}{' '}
      {canRefresh && offer.authorize ? <AuthorizeButton serverId={view.server.id} /> : null}
    </span>
  );
}

interface ToolRow {
  serverId: string;
  name: string;
  title: string | null;
  description: string;
  annotations: Record<string, unknown> | null;
  inputSchema: object | null;
  outputSchema: object | null;
}

function rowsOf(view: ServerView): ToolRow[] {
  const tools = (view.cached?.listing?.tools ?? []) as Record<string, unknown>[];
  return tools.map((t) => ({
    serverId: view.server.id,
    name: String(t.name ?? ''),
    title: typeof t.title === 'string' ? t.title : null,
    description: typeof t.description === 'string' ? t.description : '',
    annotations: t.annotations && typeof t.annotations === 'object' ? (t.annotations as Record<string, unknown>) : null,
    inputSchema: t.inputSchema && typeof t.inputSchema === 'object' ? (t.inputSchema as object) : null,
    outputSchema: t.outputSchema && typeof t.outputSchema === 'object' ? (t.outputSchema as object) : null,
  }));
}

function Hints({ annotations }: { annotations: Record<string, unknown> | null }) {
  if (!annotations) return <span className="muted small">none</span>;
  const badges: [string, string][] = [];
  if (annotations.readOnlyHint === true) badges.push(['good', 'read-only']);
  if (annotations.readOnlyHint === false) badges.push(['warn', 'writes']);
  if (annotations.destructiveHint === true) badges.push(['bad', 'destructive']);
  if (annotations.idempotentHint === true) badges.push(['info', 'idempotent']);
  if (annotations.openWorldHint === true) badges.push(['info', 'open world']);
  return (
    <>
      {badges.map(([tone, text]) => (
        <span key={text} className={`badge ${tone}`}>
          {text}
        </span>
      ))}
    </>
  );
}

function RefreshButton({ serverId, label, limitS }: { serverId?: string; label: string; limitS: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span>
      <button
        type="button"
        className="small"
        disabled={pending}
        title={`Connects to the server(s) now; each has ${limitS} s to answer`}
        onClick={() =>
          start(async () => {
            const res = await refreshToolServersAction(serverId === undefined ? {} : { serverId });
            setMessage(res.ok ? `refreshed ${res.data.refreshed.length} server(s)` : res.error);
            router.refresh();
          })
        }
      >
        {pending ? 'Refreshing…' : label}
      </button>
      {message ? (
        <span className="small muted" role="status">
          {' '}
          {message}
        </span>
      ) : null}
    </span>
  );
}

export function ToolsBrowser({ servers, canRefresh, limitS }: { servers: ServerView[]; canRefresh: boolean; limitS: number }) {
  const [filter, setFilter] = useState('');
  const rows = useMemo(() => servers.flatMap(rowsOf), [servers]);
  const needle = filter.trim().toLowerCase();
  const shown = needle ? rows.filter((r) => [r.serverId, r.name, r.title ?? '', r.description].some((f) => f.toLowerCase().includes(needle))) : rows;
  return (
    <>
      <section className="panel" aria-label="Tool servers">
        <div className="row">
          <h2>Servers</h2>
          {canRefresh ? <RefreshButton label="Refresh every server" limitS={limitS} /> : <span className="muted small">Refreshing needs the operator role.</span>}
        </div>
        <ul>
          {servers.map((view) => {
            const { server, cached } = view;
            return (
            <li key={server.id} data-testid={`tool-server-${server.id}`}>
              <strong>{server.title}</strong> <small>({server.id})</small> · {server.kind === 'stdio' ? 'stdio command' : 'streamable HTTP'}: <code>{server.target}</code>
              {server.headerNames.length > 0 ? <> · headers: {server.headerNames.join(', ')} (values from the environment, not shown)</> : null}
              {server.envNames.length > 0 ? <> · environment: {server.envNames.join(', ')} (values not shown)</> : null}
              {cached ? (
                <span className="small muted">
                  {' '}
                  · {cached.listing ? `${cached.listing.serverInfo ? `server ${cached.listing.serverInfo.name} ${cached.listing.serverInfo.version}, ` : ''}${cached.listing.tools.length} tool(s)` : 'not reached'} · refreshed{' '}
                  <time dateTime={cached.refreshedAt}>{cached.refreshedAt.replace('T', ' ').slice(0, 19)} UTC</time> by {cached.refreshedBy} in {cached.durationMs} ms
                </span>
              ) : (
                <span className="small muted"> · never refreshed</span>
              )}
              {cached?.error ? (
                <p role="alert" className="small">
                  Could not list this server&apos;s tools: {cached.error}
                </p>
              ) : null}
              <OAuthState view={view} canRefresh={canRefresh} />
              {canRefresh ? <RefreshButton serverId={server.id} label="Refresh" limitS={limitS} /> : null}
            </li>
            );
          })}
        </ul>
      </section>
      <section className="panel" aria-label="Tools">
        <label>
          Filter tools{' '}
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="server, name or description" aria-describedby="tool-count" />
        </label>{' '}
        <span id="tool-count" className="small muted" role="status">
          {shown.length} of {rows.length} tool(s)
        </span>
        <table>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Tool</th>
              <th scope="col">Description</th>
              <th scope="col">Hints</th>
              <th scope="col">Schemas</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={`${r.serverId}/${r.name}`} data-testid={`tool-${r.serverId}-${r.name}`}>
                <td>{r.serverId}</td>
                <td>
                  <strong className="mono">{r.name}</strong>
                  {r.title ? <div className="small">{r.title}</div> : null}
                </td>
                <td className="small">{r.description}</td>
                <td>
                  <Hints annotations={r.annotations} />
                </td>
                <td>
                  <details>
                    <summary className="small">input{r.outputSchema ? ' and output' : ''} schema</summary>
                    {r.inputSchema ? <JsonTree value={r.inputSchema} label={`Input schema of ${r.name}`} /> : <span className="muted small">none</span>}
                    {r.outputSchema ? <JsonTree value={r.outputSchema} label={`Output schema of ${r.name}`} /> : null}
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

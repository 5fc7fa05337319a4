/**
 * What a user is told when a remote MCP server answers 401 (issue 40): not the server's own text
 * ("Missing Authorization header"), but what to do here — authorize it on the Tools page, give its
 * entry in config/mcp-servers.json an `oauth` block, or send a token — naming the exact keys. Whether
 * the server advertises RFC 9728 protected-resource metadata decides which of these can work.
 */
import { discoverOAuthProtectedResourceMetadata, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** How long the metadata probe may take (it runs only after a 401, or on a Tools page refresh). */
export const PRM_PROBE_MS = 3_000;

/** Whether `err` from connecting over HTTP means the server wants authorization we did not give. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof UnauthorizedError || (err instanceof StreamableHTTPError && err.code === 401);
}

/**
 * The authorization servers a server's protected-resource metadata names; null when it publishes no
 * metadata, or metadata naming no authorization server (nothing to authorize with: this dashboard's
 * own /api/mcp without an issuer), or cannot be asked.
 */
export async function protectedResourceOf(url: string, timeoutMs = PRM_PROBE_MS): Promise<{ authorizationServers: string[] } | null> {
  const fetchWithin: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  try {
    const metadata = await discoverOAuthProtectedResourceMetadata(url, undefined, fetchWithin);
    const authorizationServers = (metadata.authorization_servers ?? []).map(String);
    return authorizationServers.length > 0 ? { authorizationServers } : null;
  } catch {
    return null;
  }
}

/** A config id suggested for an unnamed server (its host), for the example entry. */
function suggestedId(url: string): string {
  const host = URL.canParse(url) ? new URL(url).hostname : 'remote';
  return host.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 64) || 'remote';
}

/**
 * The message for a 401 from `url`. `serverId`: the server's id in config/mcp-servers.json when it was
 * named with --mcp-server (or picked on the dashboard); undefined for a bare --mcp-url.
 */
export function authorizationAdvice(url: string, serverId: string | undefined, prm: { authorizationServers: string[] } | null): string {
  if (prm === null) {
    return (
      `the MCP server at ${url} asks for authorization (HTTP 401) and publishes no OAuth protected-resource metadata naming an authorization server, so it cannot be authorized from here: ` +
      `send the token it expects with --mcp-header 'Authorization: Bearer <token>'` +
      (serverId !== undefined ? `, or put it in the "headers" of '${serverId}' in config/mcp-servers.json` : '')
    );
  }
  const issuer = ` (authorization server: ${prm.authorizationServers.join(', ')})`;
  const id = serverId ?? suggestedId(url);
  // An environment variable name cannot start with a digit (a host such as 127.0.0.1).
  const envName = id.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^(?=[0-9])/, 'MCP_');
  const clientCredentials = `"oauth": {"grant": "client_credentials", "clientId": "\${${envName}_CLIENT_ID}", "clientSecret": "\${${envName}_CLIENT_SECRET}"}`;
  const lines = [
    `the MCP server at ${url} needs OAuth authorization${issuer} and no token was sent.`,
    'To use it:',
    serverId === undefined
      ? `  - add it to config/mcp-servers.json as {"id": "${id}", "url": "${url}"}; an operator then authorizes it on the Tools page (Authorize), and runs started from the dashboard with it use that token;`
      : `  - an operator authorizes '${id}' on the Tools page (Authorize); runs started from the dashboard with it then use that token;`,
    `  - for the command line, give its entry in config/mcp-servers.json client credentials in its "oauth" key, ${clientCredentials}, and run with --mcp-server ${id};`,
    `  - or send a token you already hold: --mcp-header 'Authorization: Bearer <token>'.`,
  ];
  return lines.join('\n');
}

/**
 * The OAuth client for one configured remote tool server: the SDK's ClientCredentialsProvider when
 * the deployment's file gives client credentials (machine access: a worker needs no person), else
 * a StoredOAuthProvider over the tenant's sealed credentials — tokens an operator obtained from the
 * Tools page, refreshed by the SDK when they expire. Only an interactive caller (the Tools page)
 * passes `onRedirect`; a run that would need a person is refused naming the server.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { ResolvedMcpServer } from '../server-config';
import type { OAuthCredentialStore } from './credentials';
import { StoredOAuthProvider } from './stored-provider';

/** The path of the dashboard's OAuth callback, where authorization servers send the browser back. */
export const OAUTH_CALLBACK_PATH = '/api/mcp-oauth/callback';

export interface ProviderForOptions {
  store: OAuthCredentialStore;
  /** The dashboard's own address (the callback is under it). */
  dashboardUrl: string;
  onRedirect?: (authorizationUrl: URL) => void | Promise<void>;
}

/**
 * The client-credentials provider of a server whose `oauth` block has `grant: client_credentials`
 * (machine access: no person, no stored token, so the command line can use it too); null otherwise.
 */
export function clientCredentialsProvider(server: Extract<ResolvedMcpServer, { kind: 'http' }>): OAuthClientProvider | null {
  const settings = server.oauth;
  if (settings?.grant !== 'client_credentials') return null;
  if (!settings.clientSecret) throw new Error(`tool server '${server.id}': client_credentials needs oauth.clientSecret`);
  const base = { clientId: settings.clientId, clientSecret: settings.clientSecret, ...(settings.scope ? { scope: settings.scope } : {}) };
  return settings.issuer ? new ClientCredentialsProvider({ ...base, expectedIssuer: settings.issuer }) : new ClientCredentialsProvider(base);
}

export function oauthProviderForServer(server: Extract<ResolvedMcpServer, { kind: 'http' }>, options: ProviderForOptions): OAuthClientProvider {
  const machine = clientCredentialsProvider(server);
  if (machine) return machine;
  const settings = server.oauth;
  return new StoredOAuthProvider({
    store: options.store,
    redirectUrl: `${options.dashboardUrl}${OAUTH_CALLBACK_PATH}`,
    serverLabel: `'${server.id}'`,
    ...(settings ? { preRegistered: { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) } } : {}),
    ...(options.onRedirect ? { onRedirect: options.onRedirect } : {}),
  });
}

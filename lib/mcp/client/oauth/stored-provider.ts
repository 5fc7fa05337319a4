/**
 * The MCP SDK's OAuthClientProvider over a credential store: the SDK's client auth helpers
 * (`auth()`, called by the streamable-HTTP transport on a 401 with `WWW-Authenticate: Bearer
 * resource_metadata=…`) do discovery (RFC 9728, RFC 8414), dynamic client registration where the
 * authorization server offers it, the authorization code flow with PKCE and S256, refresh and
 * resource indicators; this class only keeps what they produce. An interactive flow ends by
 * handing the authorization URL to `onRedirect` (the Tools page sends the operator's browser
 * there); without one — a worker — a server that needs a person's consent is refused, naming it.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthCredentialStore, OAuthCredentials } from './credentials';

export interface StoredProviderOptions {
  store: OAuthCredentialStore;
  /** Where the authorization server sends the browser back (the dashboard's callback route). */
  redirectUrl: string;
  /** The client's name at the authorization server. */
  clientName?: string;
  /** Credentials given by the server's operator (no dynamic registration), from the deployment's file. */
  preRegistered?: { client_id: string; client_secret?: string };
  /** A Client ID Metadata Document URL (SEP-991), offered to servers that accept one. */
  clientMetadataUrl?: string;
  /** Receives the authorization URL of an interactive flow; absent: such a flow is refused. */
  onRedirect?: (authorizationUrl: URL) => void | Promise<void>;
  /** Names the server in the refusal a non-interactive caller gets. */
  serverLabel?: string;
}

export class AuthorizationNeededError extends Error {
  constructor(server: string) {
    super(`the MCP server ${server} needs an operator to authorize it: open the Tools page and choose Authorize`);
    this.name = 'AuthorizationNeededError';
  }
}

export class StoredOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl?: string;

  constructor(private readonly options: StoredProviderOptions) {
    if (options.clientMetadataUrl) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'Stockroom Harness Dashboard',
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A public client unless the server's operator gave us a secret: PKCE protects the code.
      token_endpoint_auth_method: this.options.preRegistered?.client_secret ? 'client_secret_basic' : 'none',
    };
  }

  private async update(change: (c: OAuthCredentials) => void): Promise<void> {
    const current = await this.options.store.load();
    change(current);
    await this.options.store.save(current);
  }

  async state(): Promise<string> {
    const state = randomBytes(24).toString('base64url');
    await this.update((c) => {
      c.state = state;
    });
    return state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.options.store.load()).client ?? this.options.preRegistered;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update((c) => {
      c.client = client;
    });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.options.store.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((c) => {
      c.tokens = tokens;
      if (tokens.expires_in !== undefined) c.expiresAt = new Date(Date.now() + tokens.expires_in * 1000).toISOString();
      else delete c.expiresAt;
      delete c.codeVerifier;
      delete c.state;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.onRedirect) throw new AuthorizationNeededError(this.options.serverLabel ?? authorizationUrl.origin);
    await this.options.onRedirect(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update((c) => {
      c.codeVerifier = codeVerifier;
    });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.options.store.load()).codeVerifier;
    if (!verifier) throw new Error('no authorization is in progress for this server (no PKCE verifier saved)');
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.update((c) => {
      c.discovery = state;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.options.store.load()).discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.update((c) => {
      if (scope === 'all' || scope === 'client') delete c.client;
      if (scope === 'all' || scope === 'tokens') {
        delete c.tokens;
        delete c.expiresAt;
      }
      if (scope === 'all' || scope === 'verifier') delete c.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete c.discovery;
    });
  }
}

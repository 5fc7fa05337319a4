/**
 * What the MCP OAuth client keeps for one tenant and one remote tool server, and the narrow store
 * it is kept in. The store is handed in (the dashboard's is sealed in the database, the conformance
 * client's is memory); this library never imports the data layer.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';

export interface OAuthCredentials {
  /** The client as registered with the authorization server (dynamic registration or pre-registered). */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token stops working (ISO), from `expires_in` at the time it was saved. */
  expiresAt?: string;
  /** PKCE verifier and state of an authorization in progress. */
  codeVerifier?: string;
  state?: string;
  discovery?: OAuthDiscoveryState;
}

export interface OAuthCredentialStore {
  load(): Promise<OAuthCredentials>;
  save(credentials: OAuthCredentials): Promise<void>;
}

/** A store in memory (the conformance client, tests). */
export function memoryCredentialStore(initial: OAuthCredentials = {}): OAuthCredentialStore & { current: OAuthCredentials } {
  const store = {
    current: structuredClone(initial),
    load: async () => structuredClone(store.current),
    save: async (c: OAuthCredentials) => {
      store.current = structuredClone(c);
    },
  };
  return store;
}

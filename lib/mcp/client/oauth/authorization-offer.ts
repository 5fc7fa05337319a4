/**
 * Whether the Tools page offers "Authorize" for a configured server (issue 40): only where the server
 * publishes OAuth protected-resource metadata, as its last refresh found. Pure, with no imports, so
 * the page's client component can use it.
 */
/** What the Tools page offers a configured server: its OAuth state, and an Authorize button. */
export interface AuthorizationOffer {
  /** Show the server's OAuth line (how it is authorized, whether a token is held). */
  showState: boolean;
  /** Offer "Authorize": only a server that publishes protected-resource metadata can be authorized by an operator. */
  authorize: boolean;
}

/**
 * `grant`: how the server's entry says it is authorized (null: a stdio server); `protectedResource`:
 * whether its last refresh found protected-resource metadata (null or undefined: not refreshed yet).
 */
export function authorizationOffer(grant: 'authorization_code' | 'client_credentials' | null, protectedResource: boolean | null | undefined, tokenHeld: boolean): AuthorizationOffer {
  if (grant === null) return { showState: false, authorize: false };
  const authorize = grant === 'authorization_code' && protectedResource === true;
  return { showState: authorize || tokenHeld || grant === 'client_credentials', authorize };
}

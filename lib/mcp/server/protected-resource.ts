/**
 * The dashboard's /api/mcp as an OAuth 2.1 protected resource (MCP authorization, 2025-06-18):
 * RFC 9728 metadata naming the resource and its authorization server, a `WWW-Authenticate` challenge
 * pointing to that metadata, and access tokens accepted only when issued by that server *for this
 * resource* (the JWT's `aud` is this endpoint's URL: a token minted for another resource is refused).
 * The authorization server is configured, not built in (STOCKROOM_MCP_OAUTH_ISSUER, its JWKS from
 * STOCKROOM_MCP_OAUTH_JWKS_URL or its RFC 8414 metadata); without one the endpoint keeps the static
 * token and dashboard sessions only, and publishes metadata with no authorization server.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { ConfigError } from '../../harness';

/** Path of the metadata document, and its RFC 9728 form with the resource's path appended. */
export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const MCP_PATH = '/api/mcp';

export interface ResourceServerConfig {
  /** The canonical URL of /api/mcp: what tokens must be issued for. */
  resource: string;
  /** The authorization server's issuer, or null when none is configured. */
  issuer: string | null;
  jwksUrl: string | null;
  scopes: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** The resource server's settings from the environment; a bad value names the variable. */
export function resourceServerConfig(dashboardUrl: string, env: Env = process.env): ResourceServerConfig {
  const issuer = env.STOCKROOM_MCP_OAUTH_ISSUER?.trim() || null;
  if (issuer !== null && !URL.canParse(issuer)) throw new ConfigError('STOCKROOM_MCP_OAUTH_ISSUER', 'STOCKROOM_MCP_OAUTH_ISSUER is not a URL');
  const jwksUrl = env.STOCKROOM_MCP_OAUTH_JWKS_URL?.trim() || null;
  if (jwksUrl !== null && !URL.canParse(jwksUrl)) throw new ConfigError('STOCKROOM_MCP_OAUTH_JWKS_URL', 'STOCKROOM_MCP_OAUTH_JWKS_URL is not a URL');
  const scopes = (env.STOCKROOM_MCP_OAUTH_SCOPES ?? 'mcp:tools').split(/[\s,]+/).filter(Boolean);
  return { resource: `${dashboardUrl}${MCP_PATH}`, issuer, jwksUrl, scopes };
}

/** The RFC 9728 document for /api/mcp. */
export function protectedResourceMetadata(config: ResourceServerConfig): Record<string, unknown> {
  return {
    resource: config.resource,
    authorization_servers: config.issuer ? [config.issuer] : [],
    bearer_methods_supported: ['header'],
    scopes_supported: config.scopes,
    resource_name: 'Stockroom inventory tools',
  };
}

/** Where the metadata is, as the challenge names it (RFC 9728 §3.1: the resource's path appended). */
export function resourceMetadataUrl(config: ResourceServerConfig): string {
  const resource = new URL(config.resource);
  return `${resource.origin}${PRM_PATH}${resource.pathname}`;
}

/** The `WWW-Authenticate` value of a 401 from /api/mcp, or of a 403 `insufficient_scope`. */
export function bearerChallenge(config: ResourceServerConfig, error?: { code: 'invalid_token' | 'insufficient_scope'; description: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(config)}"`];
  if (config.scopes.length) parts.push(`scope="${config.scopes.join(' ')}"`);
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

async function jwksFor(config: ResourceServerConfig): Promise<ReturnType<typeof createRemoteJWKSet>> {
  let url = config.jwksUrl;
  if (url === null) {
    // RFC 8414 metadata of the issuer names its keys.
    const issuer = new URL(config.issuer!);
    const res = await fetch(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname === '/' ? '' : issuer.pathname}`);
    const body = res.ok ? ((await res.json()) as { jwks_uri?: unknown }) : {};
    if (typeof body.jwks_uri !== 'string') throw new Error('the authorization server publishes no jwks_uri');
    url = body.jwks_uri;
  }
  let set = jwksCache.get(url);
  if (!set) jwksCache.set(url, (set = createRemoteJWKSet(new URL(url))));
  return set;
}

/**
 * A token's verdict. `insufficient_scope`: the token is valid for this resource but lacks a scope it
 * needs (RFC 6750 §3.1: answered 403, naming the scope, so a client can step up); any other failure
 * is an invalid token (401).
 */
export type TokenCheck =
  | { ok: true; claims: JWTPayload & { email?: string; scope?: string } }
  | { ok: false; message: string; error: 'invalid_token' | 'insufficient_scope' };

/**
 * Whether `token` is an access token of the configured authorization server for this resource:
 * signature (its JWKS), issuer, audience = this resource, not expired, and the scopes asked for.
 */
export async function verifyResourceToken(token: string, config: ResourceServerConfig): Promise<TokenCheck> {
  if (config.issuer === null) return { ok: false, message: 'this endpoint accepts no OAuth access tokens (no authorization server is configured)', error: 'invalid_token' };
  try {
    const { payload } = await jwtVerify(token, await jwksFor(config), { issuer: config.issuer, audience: config.resource, algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'] });
    const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    const missing = config.scopes.filter((s) => !granted.includes(s));
    if (missing.length > 0) return { ok: false, message: `the token lacks the scope ${missing.join(' ')}`, error: 'insufficient_scope' };
    return { ok: true, claims: payload as JWTPayload & { email?: string; scope?: string } };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // jose names the failed claim ("unexpected \"aud\" claim value"): say so without echoing the token.
    return { ok: false, error: 'invalid_token', message: /aud/.test(message) ? 'the token was issued for another resource' : `the token is not valid here (${message.split('\n')[0]})` };
  }
}

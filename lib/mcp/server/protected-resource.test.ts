/**
 * Issue 24 §7, as a server: /api/mcp as an OAuth 2.1 protected resource. Tokens come from a real
 * issuer stub on 127.0.0.1 publishing its keys as a JWKS (RFC 8414 metadata → jwks_uri) and signing
 * with them; only a token issued by it for this resource, unexpired, with the scope, is accepted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge, protectedResourceMetadata, resourceMetadataUrl, resourceServerConfig, verifyResourceToken, type ResourceServerConfig } from './protected-resource';

describe('/api/mcp as a protected resource', () => {
  let issuerServer: Server;
  let issuer: string;
  let key: CryptoKey;
  let config: ResourceServerConfig;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    issuerServer = createServer((req, res) => {
      if (req.url === '/.well-known/oauth-authorization-server') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      } else if (req.url === '/jwks') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    config = resourceServerConfig('http://127.0.0.1:3124', { STOCKROOM_MCP_OAUTH_ISSUER: issuer });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => issuerServer.close(() => resolve()));
  });

  const token = (claims: { aud?: string; iss?: string; exp?: number; scope?: string }) =>
    new SignJWT({ email: 'alice@example.test', scope: claims.scope ?? 'mcp:tools' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(claims.iss ?? issuer)
      .setAudience(claims.aud ?? config.resource)
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(key);

  it('publishes RFC 9728 metadata naming the resource and its authorization server, and a challenge pointing to it', () => {
    expect(protectedResourceMetadata(config)).toMatchObject({ resource: 'http://127.0.0.1:3124/api/mcp', authorization_servers: [issuer], bearer_methods_supported: ['header'] });
    expect(resourceMetadataUrl(config)).toBe('http://127.0.0.1:3124/.well-known/oauth-protected-resource/api/mcp');
    expect(bearerChallenge(config)).toBe('Bearer resource_metadata="http://127.0.0.1:3124/.well-known/oauth-protected-resource/api/mcp", scope="mcp:tools"');
  });

  it('accepts a token its authorization server issued for this resource', async () => {
    const check = await verifyResourceToken(await token({}), config);
    expect(check).toMatchObject({ ok: true, claims: { email: 'alice@example.test', sub: 'alice' } });
  });

  it('refuses a token issued for another resource, by another issuer, expired, or without the scope', async () => {
    expect(await verifyResourceToken(await token({ aud: 'http://127.0.0.1:9999/mcp' }), config)).toEqual({ ok: false, error: 'invalid_token', message: 'the token was issued for another resource' });
    expect((await verifyResourceToken(await token({ iss: 'http://127.0.0.1:1/other' }), config)).ok).toBe(false);
    expect((await verifyResourceToken(await token({ exp: Math.floor(Date.now() / 1000) - 60 }), config)).ok).toBe(false);
    expect(await verifyResourceToken(await token({ scope: 'profile' }), config)).toEqual({ ok: false, error: 'insufficient_scope', message: 'the token lacks the scope mcp:tools' });
    expect((await verifyResourceToken('not-a-jwt', config)).ok).toBe(false);
  });

  it('accepts no token at all when no authorization server is configured', async () => {
    const none = resourceServerConfig('http://127.0.0.1:3124', {});
    expect(protectedResourceMetadata(none).authorization_servers).toEqual([]);
    expect((await verifyResourceToken(await token({}), none)).ok).toBe(false);
  });
});

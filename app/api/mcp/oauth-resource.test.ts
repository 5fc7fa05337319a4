/**
 * Issue 24 §7, as a server: /api/mcp is an OAuth 2.1 protected resource (route handlers called
 * with web Requests). A 401 points to the RFC 9728 metadata, which names the authorization server;
 * an access token that server issued for this resource to an operator of the tenant is let in, a
 * token for another resource is refused, and the static token still works for scripts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/lib/db/core/client';
import { createTestDatabaseUrl } from '@/lib/db/testing/test-databases';
import { upsertUser } from '@/lib/auth/users';
import { hasShared, SHARED_DATASET_DIR } from '@/lib/mcp/test-support';
import { migrate } from '@/scripts/db-migrate.mjs';
import { GET as metadata } from '../../.well-known/oauth-protected-resource/[[...path]]/route';
import { POST } from './route';

const DASHBOARD = 'http://127.0.0.1:3124';
const RESOURCE = `${DASHBOARD}/api/mcp`;
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const post = (authorization?: string) =>
  POST(
    new Request(RESOURCE, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1:3124', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(INITIALIZE),
    }),
  );

describe.skipIf(!hasShared)('/api/mcp as an OAuth protected resource', () => {
  const saved = { ...process.env };
  let issuerServer: Server;
  let issuer: string;
  let key: CryptoKey;
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    issuerServer = createServer((req, res) => {
      if (req.url === '/jwks') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    database = await createTestDatabaseUrl('sqlite');
    await migrate({ url: database.url });
    const db = openDatabase(database.url);
    await upsertUser(db, { email: 'olga@example.test', password: 'a-long-password-123', roles: ['operator'], tenant: 'kittiwake' });
    await upsertUser(db, { email: 'vera@example.test', password: 'a-long-password-123', roles: ['viewer'], tenant: 'kittiwake' });
    await db.close();
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      STOCKROOM_DATASET: SHARED_DATASET_DIR,
      STOCKROOM_MCP_TOKEN: 'static-script-token-0123456789',
      STOCKROOM_DASHBOARD_URL: DASHBOARD,
      STOCKROOM_MCP_OAUTH_ISSUER: issuer,
      STOCKROOM_MCP_OAUTH_JWKS_URL: `${issuer}/jwks`,
    });
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise<void>((resolve) => issuerServer.close(() => resolve()));
    await database?.drop();
  });

  const token = (email: string, audience = RESOURCE, scope = 'mcp:tools') =>
    new SignJWT({ email, scope }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(issuer).setAudience(audience).setIssuedAt().setExpirationTime('10m').sign(key);

  it('answers a caller without credentials 401 with a challenge pointing to its RFC 9728 metadata', async () => {
    const res = await post();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${DASHBOARD}/.well-known/oauth-protected-resource/api/mcp", scope="mcp:tools"`);
    for (const path of [[], ['api', 'mcp']]) {
      const doc = await metadata(new Request(`${DASHBOARD}/.well-known/oauth-protected-resource/${path.join('/')}`), { params: Promise.resolve({ path }) });
      expect(await doc.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [issuer], scopes_supported: ['mcp:tools'] });
    }
  });

  it("lets in an operator's access token issued for this resource", async () => {
    const res = await post(`Bearer ${await token('olga@example.test')}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('stockroom-inventory');
  });

  it('refuses a token issued for another resource, naming why, and one whose user is not an operator', async () => {
    const other = await post(`Bearer ${await token('olga@example.test', 'http://127.0.0.1:9/mcp')}`);
    expect(other.status).toBe(401);
    expect(other.headers.get('www-authenticate')).toContain('error="invalid_token", error_description="the token was issued for another resource"');
    expect((await post(`Bearer ${await token('vera@example.test')}`)).status).toBe(403);
  });

  it('answers a valid token without the mcp:tools scope 403 insufficient_scope, naming the scope (RFC 6750)', async () => {
    const res = await post(`Bearer ${await token('olga@example.test', RESOURCE, 'profile')}`);
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp:tools"');
    expect(challenge).toContain(`resource_metadata="${DASHBOARD}/.well-known/oauth-protected-resource/api/mcp"`);
    // A token that is not valid at all is still 401.
    expect((await post(`Bearer ${await token('olga@example.test', 'http://127.0.0.1:9/mcp', 'profile')}`)).status).toBe(401);
  });

  it('keeps the static token for scripts', async () => {
    expect((await post('Bearer static-script-token-0123456789')).status).toBe(200);
  });
});

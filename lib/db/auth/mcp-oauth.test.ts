/**
 * Issue 24 §7, as a client: a remote MCP server answering 401 with `WWW-Authenticate: Bearer
 * resource_metadata=…` (a real server on 127.0.0.1, built from the SDK's own server-side auth) is
 * authorized for one tenant — discovery, dynamic client registration, authorization code with PKCE,
 * the browser's round trip by its `state` — and the tokens are stored sealed for that tenant: a run
 * (no person present) uses them, another tenant has none, and a sealed value moved to another
 * tenant's row does not open.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutor } from '../../mcp/client/create-executor';
import type { McpToolExecutor } from '../../mcp/client/mcp-executor';
import type { ResolvedMcpServer } from '../../mcp/client/server-config';
import { startOAuthProtectedServer, type ProtectedServer } from '../../mcp/testing/oauth-protected-server';
import { hasOwn, OWN_DATASET_DIR } from '../../mcp/test-support';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { oauthStatuses, prismaCredentialStore, serverOfPendingState, tenantOAuthProvider } from './mcp-oauth';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('OAuth for a remote tool server on $name', ({ provider, db }) => {
  let remote: ProtectedServer;
  let server: Extract<ResolvedMcpServer, { kind: 'http' }>;
  beforeAll(async () => {
    if (provider.skipReason) return;
    remote = await startOAuthProtectedServer();
    server = { id: 'guarded', kind: 'http', url: remote.url, headers: {} };
  });
  afterAll(async () => {
    await remote?.stop();
  });
  const test = provider.skipReason || !hasOwn ? it.skip : it;

  const runExecutor = (tenant: string) =>
    createExecutor({ transport: 'mcp-http', dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], mcpUrl: server.url, mcpServerId: 'guarded', mcpAuth: tenantOAuthProvider(tenant, server, 'run', undefined, db) });

  test('authorizes from a 401, stores the tokens sealed for the tenant, and a run uses them', async () => {
    // Before: a run cannot use the server, and says who must act.
    const before = await runExecutor('kittiwake').catch((e: unknown) => e);
    expect(String(before)).toMatch(/'guarded' needs an operator to authorize it/);

    let redirect: URL | undefined;
    const interactive = tenantOAuthProvider('kittiwake', server, 'alice@example.test', (url) => void (redirect = url), db);
    expect(await auth(interactive, { serverUrl: server.url })).toBe('REDIRECT');
    expect(redirect?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(redirect?.searchParams.get('resource')).toBe(server.url);
    // The operator's browser: the authorization server approves and sends it back with code and state.
    const answer = await fetch(redirect!, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location')!);
    const state = back.searchParams.get('state')!;
    expect(await serverOfPendingState('kittiwake', state, db)).toBe('guarded');
    expect(await serverOfPendingState('puffin', state, db)).toBeNull();
    expect(await auth(tenantOAuthProvider('kittiwake', server, 'alice@example.test', undefined, db), { serverUrl: server.url, authorizationCode: back.searchParams.get('code')! })).toBe('AUTHORIZED');

    const row = await db.prisma.mcpOAuthCredential.findUniqueOrThrow({ where: { tenant_serverId: { tenant: 'kittiwake', serverId: 'guarded' } } });
    const token = (await prismaCredentialStore('kittiwake', 'guarded', 'x', db).load()).tokens!.access_token;
    expect(row.sealed).not.toContain(token);
    expect(row.pendingState).toBeNull();
    expect(await oauthStatuses('kittiwake', db)).toEqual([expect.objectContaining({ serverId: 'guarded', authorized: true, updatedBy: 'alice@example.test' })]);

    const executor = (await runExecutor('kittiwake')) as McpToolExecutor;
    try {
      expect((await executor.call('whoami', {})).content).toMatch(/^client /);
    } finally {
      await executor.close();
    }
    // Another tenant holds no token for it.
    expect(String(await runExecutor('puffin').catch((e: unknown) => e))).toMatch(/needs an operator to authorize it/);
  }, 60_000);

  test("does not open a sealed value moved to another tenant's row", async () => {
    const sealed = (await db.prisma.mcpOAuthCredential.findUniqueOrThrow({ where: { tenant_serverId: { tenant: 'kittiwake', serverId: 'guarded' } } })).sealed;
    const row = { sealed, updatedAt: new Date(), updatedBy: 'mallory' };
    await db.prisma.mcpOAuthCredential.upsert({ where: { tenant_serverId: { tenant: 'puffin', serverId: 'guarded' } }, create: { tenant: 'puffin', serverId: 'guarded', ...row }, update: row });
    expect(await prismaCredentialStore('puffin', 'guarded', 'x', db).load()).toEqual({});
  });
});

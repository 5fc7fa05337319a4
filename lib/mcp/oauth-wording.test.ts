/**
 * Issue 40: a remote MCP server that asks for OAuth. Observed before: `run --mcp-url` against one
 * exited 2 with the server's raw "Missing Authorization header", naming neither the Tools page nor
 * the `oauth` setting, and the Tools page offered "Authorize" for every remote server, including
 * ones with no authorization at all. Against real servers on loopback: one built from the MCP SDK's
 * own OAuth server parts, one that answers 401 with metadata naming no authorization server, and the
 * stranger (no auth).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/stockroom';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import { listConfiguredServerTools } from './client/list-server-tools';
import { authorizationOffer } from './client/oauth/authorization-offer';
import { startOAuthProtectedServer, type ProtectedServer } from './testing/oauth-protected-server';
import { startStrangerHttp, type StrangerHttp } from './testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

let guarded: ProtectedServer;
let stranger: StrangerHttp;
let bare: Server;
let bareUrl: string;
beforeAll(async () => {
  if (!hasOwn) return;
  [guarded, stranger] = await Promise.all([startOAuthProtectedServer(), startStrangerHttp()]);
  // 401 with a plain challenge; its metadata names no authorization server (as /api/mcp's does without an issuer).
  bare = createServer((req, res) => {
    if (req.url === '/.well-known/oauth-protected-resource/mcp') {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: bareUrl, authorization_servers: [] }));
    }
    if (req.url?.startsWith('/.well-known/')) return void res.writeHead(404).end();
    res.writeHead(401, { 'www-authenticate': 'Bearer realm="bare"', 'content-type': 'application/json' }).end('{"error":"invalid_token","error_description":"Missing Authorization header"}');
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await guarded?.stop();
  await stranger?.stop();
  await new Promise<void>((resolve) => (bare ? bare.close(() => resolve()) : resolve()));
});

describe.skipIf(!hasOwn)('a server that asks for OAuth, from the command line', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);

  it('says what to do — the Tools page, or the oauth block with its exact keys — not the server’s raw refusal', async () => {
    const err = await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: guarded.url }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain(`the MCP server at ${guarded.url} needs OAuth authorization`);
    expect(err?.message).toContain('Tools page');
    expect(err?.message).toContain('config/mcp-servers.json');
    expect(err?.message).toContain('"oauth": {"grant": "client_credentials", "clientId": "${MCP_127_0_0_1_CLIENT_ID}", "clientSecret": "${MCP_127_0_0_1_CLIENT_SECRET}"}');
    expect(err?.message).toContain('{"id": "127.0.0.1", "url": "' + guarded.url + '"}');
    expect(err?.message).toContain("--mcp-header 'Authorization: Bearer <token>'");
    expect(err?.message).not.toContain('Missing Authorization header');
  }, 30_000);

  it('exits 2 from `run --mcp-url` with that message', async () => {
    let stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    try {
      expect(await main(['run', '--mcp-url', guarded.url, 'how many SKU-2001 are in stock?'])).toBe(2);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stderr).toContain('needs OAuth authorization');
    expect(stderr).toContain('Tools page');
    expect(stderr).toContain('"oauth"');
    expect(stderr).not.toContain('Missing Authorization header');
  }, 30_000);

  it('tells a server whose metadata names no authorization server apart: only a token can reach it', async () => {
    const err = await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: bareUrl, mcpServerId: 'bare' }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('publishes no OAuth protected-resource metadata');
    expect(err?.message).toContain(`put it in the "headers" of 'bare' in config/mcp-servers.json`);
    expect(err?.message).not.toContain('Tools page');
    expect(err?.message).not.toContain('Missing Authorization header');
  });
});

describe.skipIf(!hasOwn)('the Tools page’s Authorize', () => {
  it('is offered only for a server that publishes protected-resource metadata, as its refresh found', async () => {
    const listed = await listConfiguredServerTools([
      { id: 'guarded', url: guarded.url },
      { id: 'stranger', url: stranger.url },
      { id: 'bare', url: bareUrl },
    ]);
    const byId = new Map(listed.map((l) => [l.server.id, l]));
    expect(byId.get('guarded')?.protectedResource).toBe(true);
    expect(byId.get('guarded')?.error).toContain('needs OAuth authorization');
    expect(byId.get('stranger')?.protectedResource).toBe(false);
    expect(byId.get('stranger')?.error).toBeNull();
    expect(byId.get('bare')?.protectedResource).toBe(false);
    for (const l of listed) {
      expect(authorizationOffer(l.server.oauth, l.protectedResource, false).authorize).toBe(l.server.id === 'guarded');
    }
  }, 30_000);

  it('shows no OAuth line for a remote server with none, unless a token is held or client credentials are configured', () => {
    expect(authorizationOffer('authorization_code', false, false)).toEqual({ showState: false, authorize: false });
    expect(authorizationOffer('authorization_code', null, false)).toEqual({ showState: false, authorize: false });
    expect(authorizationOffer('authorization_code', true, false)).toEqual({ showState: true, authorize: true });
    expect(authorizationOffer('authorization_code', false, true)).toEqual({ showState: true, authorize: false });
    expect(authorizationOffer('client_credentials', false, false)).toEqual({ showState: true, authorize: false });
    expect(authorizationOffer(null, true, false)).toEqual({ showState: false, authorize: false });
  });
});

/**
 * An OAuth-protected remote tool server (a real server on 127.0.0.1, built from the SDK's own
 * server-side auth) that forgets the executor's session, as after a restart: the new session is
 * opened with the token the first used, sent again with its initialize and every request after — no
 * request reaches the server without it, and no second authorization is needed.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ToolSessionRenewal } from '../../../harness/executor';
import { loadDataset } from '../../../stockroom/dataset/load-dataset';
import { startOAuthProtectedServer, type ProtectedServer } from '../../testing/oauth-protected-server';
import { hasOwn, OWN_DATASET_DIR } from '../../test-support';
import { createExecutor } from '../create-executor';
import type { McpToolExecutor } from '../mcp-executor';
import { memoryCredentialStore } from './credentials';
import { StoredOAuthProvider } from './stored-provider';

let remote: ProtectedServer;
beforeAll(async () => {
  remote = await startOAuthProtectedServer();
});
afterAll(async () => {
  await remote?.stop();
});

it.skipIf(!hasOwn)('opens the new session with the same token after the server forgot the first', async () => {
  const store = memoryCredentialStore();
  const redirectUrl = 'http://127.0.0.1:3000/api/mcp-oauth/callback';
  let redirect: URL | undefined;
  const interactive = new StoredOAuthProvider({ store, redirectUrl, onRedirect: (url) => void (redirect = url) });
  expect(await auth(interactive, { serverUrl: remote.url })).toBe('REDIRECT');
  const back = new URL((await fetch(redirect!, { redirect: 'manual' })).headers.get('location')!);
  expect(await auth(interactive, { serverUrl: remote.url, authorizationCode: back.searchParams.get('code')! })).toBe('AUTHORIZED');
  const token = store.current.tokens!.access_token;

  // A run's provider: no person present, so a second authorization would be refused.
  const mcpAuth = new StoredOAuthProvider({ store, redirectUrl, serverLabel: "'guarded'" });
  const executor = (await createExecutor({ transport: 'mcp-http', dataset: loadDataset(OWN_DATASET_DIR), weaknesses: [], mcpUrl: remote.url, mcpServerId: 'guarded', mcpAuth })) as McpToolExecutor;
  try {
    const first = await executor.call('whoami', {});
    expect(first.content).toMatch(/^client /);
    remote.forgetSessions();
    const renewals: ToolSessionRenewal[] = [];
    const second = await executor.call('whoami', {}, { onSessionRenewed: (r) => renewals.push(r) });
    expect(second.content).toBe(first.content);
    expect(renewals.map((r) => r.reason)).toEqual(['session_ended']);
    expect(remote.seen()).toEqual({ initializeAuthorizations: [`Bearer ${token}`, `Bearer ${token}`], withoutAuthorization: 0 });
    expect(store.current.tokens!.access_token).toBe(token);
  } finally {
    await executor.close();
  }
}, 60_000);

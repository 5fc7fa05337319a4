/**
 * The client the official MCP conformance suite drives (`conformance client --command …`): our own
 * MCP client stack — httpConnection, McpToolExecutor, StoredOAuthProvider over the SDK's client
 * auth helpers — pointed at the suite's server URL (the last argument). The suite's authorization
 * server approves at once, so the browser step of an interactive flow is one GET whose redirect
 * carries the code; everything else is what the dashboard does. MCP_CONFORMANCE_CONTEXT carries
 * pre-registered or client-credentials secrets for the scenarios that need them.
 *
 *   node --import tsx lib/mcp/testing/conformance-client.ts <server-url>
 */
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { httpConnection } from '../client';
import { McpToolExecutor } from '../client';
import { memoryCredentialStore } from '../client';
import { StoredOAuthProvider } from '../client';

/** The suite's Client ID Metadata Document URL (SEP-991): offered to authorization servers that accept one. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URL = 'http://127.0.0.1:1/api/mcp-oauth/callback';

interface Context {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

function provider(context: Context, pending: { url?: URL }): OAuthClientProvider {
  if (context.client_id && context.private_key_pem) {
    return new PrivateKeyJwtProvider({ clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm ?? 'ES256' });
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (context.client_id && context.client_secret && scenario.includes('client-credentials')) {
    return new ClientCredentialsProvider({ clientId: context.client_id, clientSecret: context.client_secret });
  }
  return new StoredOAuthProvider({
    store: memoryCredentialStore(),
    redirectUrl: REDIRECT_URL,
    clientName: 'stockroom conformance client',
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(context.client_id ? { preRegistered: { client_id: context.client_id, ...(context.client_secret ? { client_secret: context.client_secret } : {}) } } : {}),
    onRedirect: (url) => {
      pending.url = url;
    },
  });
}

/** The "browser": asks the authorization URL and reads the code from where it redirects. */
async function approve(url: URL): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${res.status} without a redirect`);
  const code = new URL(location, url).searchParams.get('code');
  if (!code) throw new Error('the redirect carried no authorization code');
  return code;
}

function isUnauthorized(err: unknown): boolean {
  for (let e = err; e; e = (e as { cause?: unknown }).cause) if (e instanceof UnauthorizedError) return true;
  return false;
}

/** `work`, authorizing (up to three times: step-up asks again) whenever the server says 401/403. */
async function authorized<T>(serverUrl: string, oauth: OAuthClientProvider, pending: { url?: URL }, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isUnauthorized(err) || !pending.url || attempt >= 3) throw err;
      const code = await approve(pending.url);
      pending.url = undefined;
      if ((await auth(oauth, { serverUrl, authorizationCode: code })) !== 'AUTHORIZED') throw new Error('the authorization code was not exchanged for a token');
    }
  }
}

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1)!;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Context;
  const pending: { url?: URL } = {};
  const oauth = provider(context, pending);
  const executor = await authorized(serverUrl, oauth, pending, () => McpToolExecutor.connect(httpConnection(serverUrl, undefined, {}, oauth), { serverId: 'conformance' }));
  try {
    const tools = await authorized(serverUrl, oauth, pending, () => executor.listTools());
    const first = tools[0];
    if (first) await authorized(serverUrl, oauth, pending, () => executor.call(first.name, {}));
  } finally {
    await executor.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`conformance client: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

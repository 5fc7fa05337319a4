/**
 * Issue 11 §1 and §2: any MCP server as the agent's tools, over real processes and sockets, with
 * @modelcontextprotocol/server-everything as the third-party server; and weakness flags confirmed
 * with the server before a run uses it.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMatrix } from '../eval/matrix';
import { resolveConfig } from '../harness/config';
import { ConfigError } from '../harness/errors';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { WebMcpEndpoint } from './server/web-endpoint';
import { createExecutor } from './client/create-executor';
import { startStockroomHttpServer, type RunningHttpServer } from './server/http-server';
import type { McpToolExecutor } from './client/mcp-executor';
import { REPO_ROOT } from './shared/paths';
import { hasOwn, OWN_DATASET_DIR } from './test-support';
import { OPEN_WRITES } from './server/write-gate';

const run = promisify(execFile);
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const EVERYTHING_COMMAND = `"${process.execPath}" "${EVERYTHING}" stdio`;

/** Runs the CLI and returns its exit code and output. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', ...args], { cwd: REPO_ROOT, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

describe.skipIf(!hasOwn)('a run against server-everything (a third-party stdio server)', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);

  it('starts without the private reset instead of failing with "reset refused by the server"', async () => {
    const executor = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: EVERYTHING_COMMAND })) as McpToolExecutor;
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      expect(await executor.offersReset()).toBe(false);
      const result = await agent.run('how many SKU-2001 are in stock?', null);
      expect(result.terminationReason).toBe('COMPLETED');
      // The model was shown server-everything's tools, and the run says what it called.
      expect((await executor.listSpecs()).map((s) => s.name)).toContain('echo');
    } finally {
      await agent.close();
    }
  });

  it('refuses a weakness flag that a server without flags cannot show, naming the flag', async () => {
    const error = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: ['naive_retry'], mcpCommand: EVERYTHING_COMMAND }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/does not state its weakness flags, so \[naive_retry\] cannot be confirmed/);
  });

  it('`tools --mcp-server everything --json` lists its tools with titles, schemas and annotations', async () => {
    const { code, stdout } = await cli(['tools', '--mcp-server', 'everything', '--json']);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as { tools: { name: string; title?: string; inputSchema: object; annotations?: object }[] };
    const echo = listed.tools.find((t) => t.name === 'echo');
    expect(echo?.title).toBeTruthy();
    expect(echo?.inputSchema).toMatchObject({ type: 'object' });
    expect(echo?.annotations).toMatchObject({ readOnlyHint: true });
  });
});

/** Our /api/mcp endpoint on a real socket, behind a bearer token, as the dashboard serves it. */
async function tokenGuardedServer(token: string): Promise<{ url: string; server: Server }> {
  const endpoint = new WebMcpEndpoint(() => loadDataset(OWN_DATASET_DIR));
  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => resolve(text));
    });
  const server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized' } }));
      return;
    }
    // No GET stream here (the client does without one); POST, and DELETE to end the session.
    if (req.method !== 'POST' && req.method !== 'DELETE') return void res.writeHead(405).end();
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      ...(req.method === 'POST' ? { body: await body(req) } : {}),
    });
    const response = await endpoint.handle(request, { key: 'token', writes: OPEN_WRITES });
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`, server };
}

describe.skipIf(!hasOwn)('--mcp-url with --mcp-header', () => {
  const token = 'header-test-token-42';
  let guarded: { url: string; server: Server };
  beforeAll(async () => {
    guarded = await tokenGuardedServer(token);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => guarded.server.close(() => resolve()));
  });

  it('reaches a server that answers 401 without the header (observed: no way to send one)', async () => {
    const without = await cli(['tools', '--mcp-url', guarded.url, '--json']);
    expect(without.code).not.toBe(0);
    expect(without.stderr).toMatch(/401|Unauthorized/);
    const withHeader = await cli(['tools', '--mcp-url', guarded.url, '--mcp-header', `Authorization: Bearer ${token}`, '--json']);
    expect(withHeader.code).toBe(0);
    expect((JSON.parse(withHeader.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('create_restock_request');
    // The secret is never echoed back in what the command prints.
    expect(withHeader.stdout + withHeader.stderr).not.toContain(token);
  });
});

describe.skipIf(!hasOwn)('weakness flags confirmed with an external server (issue 11 §2)', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  let clean: RunningHttpServer;
  let flagged: RunningHttpServer;
  let choosing: RunningHttpServer;
  beforeAll(async () => {
    clean = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, log: () => {} });
    flagged = await startStockroomHttpServer({ dataset, weaknesses: ['ambiguous_tool_desc', 'naive_retry', 'oversized_payload'], port: 0, log: () => {} });
    choosing = await startStockroomHttpServer({ dataset, weaknesses: [], port: 0, perSessionWeaknesses: true, log: () => {} });
  });
  afterAll(async () => {
    await Promise.all([clean?.close(), flagged?.close(), choosing?.close()]);
  });

  it('advertises the active flags in the initialize result', async () => {
    const res = await fetch(flagged.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    const body = (await res.json()) as { result: { capabilities: { experimental: Record<string, unknown> } } };
    expect(body.result.capabilities.experimental['stockroom.dev/weaknesses']).toEqual({
      active: ['ambiguous_tool_desc', 'naive_retry', 'oversized_payload'],
      perSession: false,
    });
  });

  it('refuses a matrix against a default-flag server instead of printing rows identical to none (observed: exit 0)', async () => {
    const failure = await runMatrix({
      dataset,
      baseConfig: resolveConfig({ transport: 'mcp-http' }),
      createExecutor: (config) => createExecutor({ transport: 'mcp-http', dataset, weaknesses: config.weaknesses, mcpUrl: clean.url }),
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(/has weakness flags \[none\] but this run asks for \[ambiguous_tool_desc\]/);
  });

  it('refuses the `none` row against a server started with flags, naming them (observed: 0.62 / 0.68 under none)', async () => {
    const error = await createExecutor({ transport: 'mcp-http', dataset, weaknesses: [], mcpUrl: flagged.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('[ambiguous_tool_desc, naive_retry, oversized_payload] but this run asks for [none]');
  });

  it('refuses eval --weaknesses oversized_payload against a clean server (observed: a report with that flag and perfect metrics)', async () => {
    const error = await createExecutor({ transport: 'mcp-http', dataset, weaknesses: ['oversized_payload'], mcpUrl: clean.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('asks for [oversized_payload]');
  });

  it('lets a server started to allow it serve each row its own flags, confirmed before use', async () => {
    const executor = (await createExecutor({ transport: 'mcp-http', dataset, weaknesses: ['oversized_payload', 'injection_unguarded'], mcpUrl: choosing.url })) as McpToolExecutor;
    try {
      expect(executor.serverWeaknesses()).toEqual({ active: ['oversized_payload'], perSession: true });
      const search = (await executor.listSpecs()).find((s) => s.name === 'search_products');
      // oversized_payload takes max_results away from the advertised schema.
      expect(Object.keys((search?.inputSchema.properties ?? {}) as object)).not.toContain('max_results');
    } finally {
      await executor.close();
    }
  });

  it('answers a client asking a fixed server for other flags with an error naming them', async () => {
    const res = await fetch(`${clean.url}?weaknesses=naive_retry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('fixed at [] and cannot be [naive_retry]');
  });
});

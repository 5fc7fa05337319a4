/** The HTTP server on a real loopback socket: DNS-rebinding refusals, sessions, shutdown; and its flags. */
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/errors';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { httpConnection } from '../client/connections';
import { defaultAllowedHostnames, hostRefusal } from './host-validation';
import { startStockroomHttpServer, type RunningHttpServer } from './http-server';
import { McpToolExecutor } from '../client/mcp-executor';
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, parseServerFlags } from './server-options';
import { hasShared, SHARED_DATASET_DIR } from '../test-support';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe.skipIf(!hasShared)('the streamable HTTP server', () => {
  let running: RunningHttpServer;

  beforeAll(async () => {
    running = await startStockroomHttpServer({ dataset: loadDataset(SHARED_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
  });
  afterAll(async () => {
    await running?.close();
  });

  /** node:http rather than fetch, which will not send a Host header of our choosing. */
  const post = (headers: Record<string, string>, body: unknown = INITIALIZE) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; text: () => Promise<string> }>((resolve, reject) => {
      const req = request(
        running.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: async () => text });
          });
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });

  it('binds to 127.0.0.1 on the port it was given', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('refuses a Host header from a rebound name with 403', async () => {
    const res = await post({ host: 'attacker.example' });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Host not allowed: attacker.example');
  });

  it('refuses a foreign Origin with 403', async () => {
    const res = await post({ origin: 'http://attacker.example' });
    expect(res.status).toBe(403);
  });

  it('asks for initialize first, and 404s an unknown session', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await post({}, list)).status).toBe(400);
    expect((await post({ 'mcp-session-id': 'no-such-session' }, list)).status).toBe(404);
  });

  it('answers a raw initialize with a session id', async () => {
    const res = await post({});
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toMatch(/[0-9a-f-]{36}/);
  });

  it('ends the session when the executor closes', async () => {
    const before = running.sessionCount();
    const executor = await McpToolExecutor.connect(httpConnection(running.url));
    expect(running.sessionCount()).toBe(before + 1);
    await executor.close();
    expect(running.sessionCount()).toBe(before);
  });

  it('closes every session on shutdown and stops listening', async () => {
    const own = await startStockroomHttpServer({ dataset: loadDataset(SHARED_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
    const executor = await McpToolExecutor.connect(httpConnection(own.url));
    await own.close();
    expect(own.sessionCount()).toBe(0);
    await expect(executor.call('get_stock_level', { sku: 'SKU-1001' })).rejects.toThrow(/mcp-http/);
    await executor.close();
  });
});

describe('Host and Origin checks', () => {
  const allowed = defaultAllowedHostnames('127.0.0.1');

  it('accepts loopback names with any port and no Origin', () => {
    expect(hostRefusal('127.0.0.1:8765', undefined, allowed)).toBeNull();
    expect(hostRefusal('localhost:3000', 'http://localhost:3000', allowed)).toBeNull();
    expect(hostRefusal('[::1]:8765', undefined, allowed)).toBeNull();
  });

  it('refuses a missing Host, another name, and a foreign Origin', () => {
    expect(hostRefusal(undefined, undefined, allowed)).toBe('Missing Host header');
    expect(hostRefusal('evil.example:8765', undefined, allowed)).toMatch(/Host not allowed/);
    expect(hostRefusal('127.0.0.1:8765', 'https://evil.example', allowed)).toMatch(/Origin not allowed/);
  });

  it('adds a specific bind address but not a wildcard', () => {
    expect(defaultAllowedHostnames('192.168.1.5')).toContain('192.168.1.5');
    expect(defaultAllowedHostnames('0.0.0.0')).not.toContain('0.0.0.0');
  });
});

describe('mcp-server flags', () => {
  it('defaults to stdio, port 8765 and 127.0.0.1', () => {
    expect(parseServerFlags([])).toEqual({
      transport: 'stdio',
      datasetDir: undefined,
      weaknesses: [],
      port: DEFAULT_HTTP_PORT,
      host: DEFAULT_HTTP_HOST,
      allowedHostnames: undefined,
      policyFile: undefined,
      sessionWeaknesses: false,
      sessionIdleMs: 5 * 60_000,
      approvals: false,
      actor: 'mcp-agent',
      conformanceTools: false,
    });
  });

  it('refuses --approvals without --policy, naming both', () => {
    expect(() => parseServerFlags(['--approvals'])).toThrow(/--approvals needs --policy FILE/);
    expect(parseServerFlags(['--approvals', '--policy', 'config/policy.json', '--actor', 'agent-7'])).toMatchObject({ approvals: true, actor: 'agent-7' });
  });

  it('reads every flag in both spellings', () => {
    const flags = parseServerFlags(['--transport=http', '--port', '0', '--dataset', 'data', '--weaknesses', 'naive_retry,ambiguous_tool_desc']);
    expect(flags).toMatchObject({ transport: 'http', port: 0, datasetDir: 'data', weaknesses: ['ambiguous_tool_desc', 'naive_retry'] });
  });

  it.each([
    [['--transport', 'websocket'], /--transport must be one of stdio, http/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--weaknesses', 'nope'], /Unknown weakness flag\(s\) \['nope'\]/],
    [['--verbose', 'x'], /unknown flag --verbose/],
    [['--port'], /--port needs a value/],
  ])('refuses %j naming the flag', (argv, message) => {
    expect(() => parseServerFlags(argv)).toThrow(ConfigError);
    expect(() => parseServerFlags(argv)).toThrow(message);
  });
});

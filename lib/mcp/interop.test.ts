/**
 * Interop with MCP software we did not write: our executor drives @modelcontextprotocol/server-everything
 * over stdio, and the Inspector's CLI mode lists and calls our server's tools over stdio and HTTP.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeJsonParse } from '../harness/json';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { childEnvironment, stdioConnection } from './client/connections';
import { startStockroomHttpServer, type RunningHttpServer } from './server/http-server';
import { McpToolExecutor } from './client/mcp-executor';
import { REPO_ROOT } from './shared/paths';
import { hasShared, SHARED_DATASET_DIR } from './test-support';

const run = promisify(execFile);
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const INSPECTOR = path.join(REPO_ROOT, 'node_modules/.bin/mcp-inspector');

describe('our executor against @modelcontextprotocol/server-everything over stdio', () => {
  let executor: McpToolExecutor;

  beforeAll(async () => {
    executor = await McpToolExecutor.connect(
      stdioConnection({ command: process.execPath, args: [EVERYTHING, 'stdio'], env: childEnvironment([]) }),
    );
  });
  afterAll(async () => {
    await executor?.close();
  });

  it('lists its tools with descriptions and object input schemas', async () => {
    const specs = await executor.listSpecs();
    expect(specs.map((s) => s.name)).toContain('echo');
    for (const spec of specs) expect(spec.inputSchema.type).toBe('object');
  });

  it('calls echo and gets its text back', async () => {
    const result = await executor.call('echo', { message: 'hello from stockroom' });
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toContain('hello from stockroom');
  });
});

/** Runs the Inspector CLI and parses the JSON it prints. */
async function inspector(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(INSPECTOR, ['--cli', ...args], { cwd: REPO_ROOT, timeout: 60_000, env: process.env });
  const parsed = safeJsonParse(stdout);
  if (!parsed.ok) throw new Error(`the Inspector printed no JSON: ${stdout.slice(0, 500)}`);
  return parsed.value as Record<string, unknown>;
}

describe.skipIf(!hasShared)('the MCP Inspector CLI against our server', () => {
  const stdioTarget = ['node', '--import', 'tsx', 'cli/stockroom.ts', 'mcp-server', '--dataset', SHARED_DATASET_DIR];
  let http: RunningHttpServer;

  beforeAll(async () => {
    http = await startStockroomHttpServer({ dataset: loadDataset(SHARED_DATASET_DIR), weaknesses: [], port: 0, log: () => {} });
  });
  afterAll(async () => {
    await http?.close();
  });

  const toolNames = (listed: Record<string, unknown>) => (listed.tools as { name: string }[]).map((t) => t.name);
  const FIVE = ['search_products', 'get_stock_level', 'get_order_status', 'create_restock_request', 'search_policy_docs'];

  it('lists the tools over stdio (with the weakness flag passed through)', async () => {
    const listed = await inspector([...stdioTarget, '--weaknesses', 'ambiguous_tool_desc', '--method', 'tools/list']);
    expect(toolNames(listed)).toEqual(expect.arrayContaining(FIVE));
    const search = (listed.tools as { name: string; description: string }[]).find((t) => t.name === 'search_products');
    expect(search?.description).toMatch(/^Look up products/);
  });

  it('calls a tool over stdio', async () => {
    const result = await inspector([...stdioTarget, '--method', 'tools/call', '--tool-name', 'get_stock_level', '--tool-arg', 'sku=SKU-1015']);
    expect(result.structuredContent).toMatchObject({ sku: 'SKU-1015', stock_level: 42 });
  });

  it('lists the tools over HTTP', async () => {
    expect(toolNames(await inspector([http.url, '--transport', 'http', '--method', 'tools/list']))).toEqual(expect.arrayContaining(FIVE));
  });

  it('calls a tool over HTTP and gets a business refusal as a tool error', async () => {
    const result = await inspector([
      http.url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'create_restock_request',
      '--tool-arg',
      'sku=SKU-1001',
      '--tool-arg',
      'quantity=5',
    ]);
    expect(result.isError).toBe(true);
    // An error result is text only (its structured content would be checked against the success schema).
    const [part] = result.content as { type: string; text: string }[];
    expect(JSON.parse(part!.text)).toEqual({
      error: 'invalid_request',
      message: 'rejected: the minimum restock quantity is 10 units (requested 5)',
    });
  });
});

/** The executor's edges: unreachable servers, closing, result normalisation and the child's environment. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ExecutorError } from '../../harness/errors';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { childEnvironment, httpConnection, stdioConnection, stockroomStdioCommand } from './connections';
import { createExecutor } from './create-executor';
import { McpToolExecutor } from './mcp-executor';
import { normaliseCallToolResult } from './normalise-result';
import { hasShared, SHARED_DATASET_DIR } from '../test-support';

const NO_FLOATS = new Set<string>();

describe('connecting to a server that is not there', () => {
  it('names mcp-stdio, the command and the child stderr when the child exits at once', async () => {
    const connection = stdioConnection({
      command: process.execPath,
      args: ['-e', 'process.stderr.write("boom: no dataset\\n"); process.exit(3)'],
      env: childEnvironment([]),
    });
    const error = await McpToolExecutor.connect(connection).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutorError);
    expect((error as ExecutorError).transport).toBe('mcp-stdio');
    expect((error as Error).message).toContain(process.execPath);
    expect((error as Error).message).toContain('boom: no dataset');
  });

  it('names mcp-http and the URL when nothing listens on the port', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/mcp`;
    const error = await McpToolExecutor.connect(httpConnection(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutorError);
    expect((error as Error).message).toMatch(/over mcp-http/);
    expect((error as Error).message).toContain(url);
  });

  it('gives up after the connect timeout when the server accepts but never answers', async () => {
    const silent = createServer(() => {
      /* never responds */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    try {
      const error = await McpToolExecutor.connect(httpConnection(url), { connectTimeoutMs: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExecutorError);
      expect((error as Error).message).toMatch(/timed out/i);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe.skipIf(!hasShared)('an executor session', () => {
  const dataset = hasShared ? loadDataset(SHARED_DATASET_DIR) : (undefined as never);

  it('closes twice without error and refuses calls once closed', async () => {
    const executor = await createExecutor({ transport: 'mcp-memory', dataset, weaknesses: [] });
    await executor.close();
    await executor.close();
    await expect(executor.call('get_stock_level', { sku: 'SKU-1001' })).rejects.toBeInstanceOf(ExecutorError);
  });

  it('gives the stdio child its own weakness flags, not the parent environment', async () => {
    const before = process.env.STOCKROOM_WEAKNESSES;
    process.env.STOCKROOM_WEAKNESSES = 'ambiguous_tool_desc';
    try {
      const executor = await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [] });
      try {
        const [search] = await executor.listSpecs();
        expect(search?.description).toBe(dataset.toolDescriptions.tools.search_products.default);
      } finally {
        await executor.close();
      }
    } finally {
      if (before === undefined) delete process.env.STOCKROOM_WEAKNESSES;
      else process.env.STOCKROOM_WEAKNESSES = before;
    }
  });

  it('refuses an --mcp-url with another transport', async () => {
    await expect(createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpUrl: 'http://127.0.0.1:1/mcp' })).rejects.toThrow(
      /only applies to --transport mcp-http/,
    );
  });
});

describe('the stdio child environment', () => {
  it('keeps only allow-listed variables and sets the executor’s own weakness flags', () => {
    const env = childEnvironment(['naive_retry', 'ambiguous_tool_desc'], {
      PATH: '/usr/bin',
      HOME: '/root',
      TMPDIR: '/tmp',
      AWS_SECRET_ACCESS_KEY: 'secret',
      DATABASE_URL: 'postgres://x',
      STOCKROOM_WEAKNESSES: 'oversized_payload',
      NODE_OPTIONS: '--inspect',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/root', TMPDIR: '/tmp', STOCKROOM_WEAKNESSES: 'ambiguous_tool_desc,naive_retry' });
  });

  it('passes the dataset and sorted flags on the command line', async () => {
    const spec = await stockroomStdioCommand('/data/x', ['oversized_payload', 'ambiguous_tool_desc'], { bundled: false });
    expect(spec.args.slice(-4)).toEqual(['--dataset', '/data/x', '--weaknesses', 'ambiguous_tool_desc,oversized_payload']);
    expect(spec.args.slice(0, 2)).toEqual(['--import', 'tsx']);
  });
});

describe('normalising a CallToolResult', () => {
  const text = (t: string): CallToolResult['content'] => [{ type: 'text', text: t }];

  it('prefers structured content over text', () => {
    const r = normaliseCallToolResult({ content: text('ignored'), structuredContent: { a: 1 } }, NO_FLOATS);
    expect(r).toMatchObject({ content: { a: 1 }, isError: false, errorCode: null });
  });

  it('parses JSON text when there is no structured content, and unwraps a bare {"result": …}', () => {
    expect(normaliseCallToolResult({ content: text('[1, 2]') }, NO_FLOATS).content).toEqual([1, 2]);
    expect(normaliseCallToolResult({ content: text('{"result": [3]}') }, NO_FLOATS).content).toEqual([3]);
    expect(normaliseCallToolResult({ content: [], structuredContent: { result: 'x' } }, NO_FLOATS).content).toBe('x');
  });

  it('keeps plain text as a string', () => {
    expect(normaliseCallToolResult({ content: text('Echo: hi') }, NO_FLOATS).content).toBe('Echo: hi');
  });

  it('keeps the server’s error code, and wraps an error without one', () => {
    const coded = normaliseCallToolResult(
      { content: text(''), structuredContent: { error: 'transient', message: 'try again' }, isError: true },
      NO_FLOATS,
    );
    expect(coded).toMatchObject({ isError: true, errorCode: 'transient' });
    const bare = normaliseCallToolResult({ content: text('it broke'), isError: true }, NO_FLOATS);
    expect(bare).toMatchObject({ isError: true, errorCode: 'tool_error', content: { error: 'tool_error', message: 'it broke' } });
  });

  it('counts payload characters as Python-JSON, floats by key', () => {
    const r = normaliseCallToolResult({ content: [], structuredContent: { price: 28 } }, new Set(['price']));
    expect(r.payloadChars).toBe('{"price": 28.0}'.length);
  });
});

/**
 * One factory for every tool transport, so run, eval and matrix choose a transport with a flag and
 * the harness never changes. With an MCP transport the flags that change the tools (descriptions,
 * payloads, shard failures) are the server's; the harness keeps its own copy for harness-side
 * behaviour.
 */
import type { Transport, WeaknessFlag } from '../harness/config';
import { ConfigError } from '../harness/errors';
import type { ToolExecutor } from '../harness/executor';
import type { Dataset } from '../stockroom/dataset/types';
import { StockroomEnvironment } from '../stockroom/environment';
import { LocalToolExecutor } from '../stockroom/executor/local-executor';
import { httpConnection, memoryConnection, stdioConnection, stockroomStdioCommand } from './connections';
import { startStockroomHttpServer } from './http-server';
import { McpToolExecutor, type McpConnection } from './mcp-executor';

export interface CreateExecutorOptions {
  transport: Transport;
  dataset: Dataset;
  /** The server's weakness flags (for `local`, the environment's). */
  weaknesses: readonly WeaknessFlag[];
  /**
   * `mcp-http` only: an already running server. Without it an in-process server is started on an
   * ephemeral loopback port for this executor and stopped by its close().
   */
  mcpUrl?: string;
}

async function ownHttpConnection(dataset: Dataset, weaknesses: readonly WeaknessFlag[]): Promise<McpConnection> {
  const running = await startStockroomHttpServer({ dataset, weaknesses, port: 0 });
  const connection = httpConnection(running.url);
  return { ...connection, afterClose: () => running.close() };
}

/** Builds a connected executor for the transport; an unreachable MCP server is an ExecutorError. */
export async function createExecutor(options: CreateExecutorOptions): Promise<ToolExecutor> {
  const { transport, dataset, weaknesses, mcpUrl } = options;
  if (mcpUrl !== undefined && transport !== 'mcp-http') {
    throw new ConfigError('mcpUrl', `--mcp-url only applies to --transport mcp-http (got ${transport})`);
  }
  if (mcpUrl !== undefined && !URL.canParse(mcpUrl)) throw new ConfigError('mcpUrl', `--mcp-url is not a URL: '${mcpUrl}'`);
  const executorOptions = { floatKeys: dataset.floatKeys };
  switch (transport) {
    case 'local':
      return new LocalToolExecutor(new StockroomEnvironment(dataset, [...weaknesses]));
    case 'mcp-memory':
      return McpToolExecutor.connect(await memoryConnection({ dataset, weaknesses }), executorOptions);
    case 'mcp-stdio':
      return McpToolExecutor.connect(stdioConnection(await stockroomStdioCommand(dataset.dir, weaknesses)), executorOptions);
    case 'mcp-http':
      return McpToolExecutor.connect(
        mcpUrl !== undefined ? httpConnection(mcpUrl) : await ownHttpConnection(dataset, weaknesses),
        executorOptions,
      );
  }
}

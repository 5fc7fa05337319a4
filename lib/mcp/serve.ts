/**
 * Runs the Stockroom MCP server until it is told to stop: over stdio (the parent owns our stdin and
 * stdout; logs go to stderr only) or over streamable HTTP (graceful shutdown on SIGINT/SIGTERM).
 * Shared by the `mcp-server` CLI command and the small stdio entry the executor spawns.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HarnessError } from '../harness/errors';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { startStockroomHttpServer } from './http-server';
import { parseServerFlags, type ServerFlags } from './server-options';
import { createStockroomServer } from './stockroom-server';

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** Resolves when a termination signal arrives. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

async function serveStdio(flags: ServerFlags, datasetDir: string): Promise<number> {
  const dataset = loadDataset(datasetDir);
  const server = createStockroomServer({ dataset, weaknesses: flags.weaknesses, log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // The parent closing our stdin is the normal end of a stdio session.
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  log(`stockroom MCP server on stdio (dataset ${dataset.dir}, weaknesses [${flags.weaknesses.join(', ')}])`);
  await Promise.race([closed, untilSignal()]);
  await server.close();
  return 0;
}

async function serveHttp(flags: ServerFlags, datasetDir: string): Promise<number> {
  const dataset = loadDataset(datasetDir);
  const running = await startStockroomHttpServer({
    dataset,
    weaknesses: flags.weaknesses,
    host: flags.host,
    port: flags.port,
    allowedHostnames: flags.allowedHostnames,
    log,
  });
  log(`stockroom MCP server on ${running.url} (dataset ${dataset.dir}, weaknesses [${flags.weaknesses.join(', ')}])`);
  const signal = await untilSignal();
  log(`${signal}: closing ${running.sessionCount()} session(s)`);
  await running.close();
  return 0;
}

/** Parses `mcp-server` flags and serves until stopped; returns the process exit code. */
export async function runMcpServer(argv: readonly string[]): Promise<number> {
  try {
    const flags = parseServerFlags(argv);
    const datasetDir = flags.datasetDir ?? defaultDatasetDir();
    return flags.transport === 'stdio' ? await serveStdio(flags, datasetDir) : await serveHttp(flags, datasetDir);
  } catch (err) {
    // Expected refusals (bad flag, bad dataset, port in use) get one line; anything else its stack.
    const known = err instanceof HarnessError || (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE');
    log(`mcp-server: ${known ? (err as Error).message : err instanceof Error ? err.stack : String(err)}`);
    return 2;
  }
}

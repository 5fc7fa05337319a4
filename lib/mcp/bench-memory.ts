/**
 * The memory part of `npm run bench -- --only mcp` (issue 11 §3): a real `mcp-server --transport
 * http` process, its resident memory read from /proc after 25,000 requests on one session (pings
 * and tool calls) and after 100 concurrent clients that never close, and once those idle sessions
 * were reaped. Measures; never asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { httpConnection } from './client';
import { McpToolExecutor } from './client';
import { REPO_ROOT } from './shared';

/** Requests sent on one session. */
export const ONE_SESSION_REQUESTS = 25_000;
/** Clients connected at once, none of which closes its session. */
export const CONCURRENT_CLIENTS = 100;
/** The server's idle limit in the bench, so reaping happens within it. */
const BENCH_IDLE_MINUTES = 0.05;

export interface MemoryFigure {
  name: string;
  mib: number;
}

/** Resident memory of a process in MiB (Linux /proc), or NaN elsewhere. */
function residentMib(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round((Number(kb) / 1024) * 10) / 10 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function startServer(datasetDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'mcp-server', '--transport', 'http', '--port', '0', '--dataset', datasetDir, '--session-idle-minutes', String(BENCH_IDLE_MINUTES)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const found = /on (http:\/\/\S+\/mcp)/.exec(err);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcp-server exited with ${code}: ${err}`)));
  });
  return { child, url };
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Sends `count` requests on one raw session (alternating ping and a read tool), one at a time. */
async function oneSession(url: string, count: number): Promise<void> {
  const send = async (body: unknown, session?: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) },
      body: JSON.stringify(body),
    });
    await res.text();
    return res.headers.get('mcp-session-id');
  };
  const session = await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, session ?? undefined);
  for (let i = 1; i <= count; i++) {
    const body =
      i % 2 === 0
        ? { jsonrpc: '2.0', id: i, method: 'ping' }
        : { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_products', arguments: { query: 'shelving' } } };
    await send(body, session ?? undefined);
  }
}

/** Runs the memory bench against a fresh server process; always stops it. */
export async function benchMcpMemory(datasetDir: string): Promise<MemoryFigure[]> {
  const { child, url } = await startServer(datasetDir);
  const pid = child.pid!;
  try {
    const figures: MemoryFigure[] = [{ name: 'mcp-server http resident at start', mib: residentMib(pid) }];
    await oneSession(url, ONE_SESSION_REQUESTS);
    figures.push({ name: `resident after ${ONE_SESSION_REQUESTS.toLocaleString('en')} requests on one session`, mib: residentMib(pid) });
    const clients = await Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, (_, i) => McpToolExecutor.connect(httpConnection(url, undefined, { Authorization: `Bearer bench-client-${i}` }))));
    await Promise.all(clients.map((c) => c.call('search_products', { query: 'gloves' })));
    figures.push({ name: `resident with ${CONCURRENT_CLIENTS} concurrent clients open`, mib: residentMib(pid) });
    // The clients go quiet without closing (as the Inspector does); the reaper closes their sessions.
    // The reaper looks every min(30 s, idle limit); three idle limits cover the idle time and a pass.
    await new Promise((resolve) => setTimeout(resolve, BENCH_IDLE_MINUTES * 60_000 * 3));
    figures.push({ name: `resident after their idle sessions were reaped`, mib: residentMib(pid) });
    await Promise.all(clients.map((c) => c.close()));
    return figures;
  } finally {
    child.kill('SIGTERM');
  }
}

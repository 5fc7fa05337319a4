/**
 * A throwaway PostgreSQL cluster for fault tests, browser specs and the bench: initdb into a temp
 * directory and pg_ctl on a free port, so a test can restart or stop it (or cut a worker off from it)
 * without touching the machine's cluster that other tests share. As root the server runs as the
 * `postgres` user (runuser), as PostgreSQL refuses to run as root. The one such helper in the project.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Where Debian keeps the server binaries, newest version first; override with STOCKROOM_PG_BIN. */
function pgBin(): string | null {
  if (process.env.STOCKROOM_PG_BIN) return process.env.STOCKROOM_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** A port nobody listens on now (the OS picks it). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  port: number;
  /** The server's URL without a database, e.g. postgresql://postgres@127.0.0.1:54123 */
  server: string;
  /** A URL of a database on it (`postgres` by default) through 127.0.0.1, or through `host`. */
  url(database?: string, host?: string): string;
  /** Stops the server (fast: connections are cut, as a restart does). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stopped, `downMs` later started again; resolves once it accepts connections. */
  restart(downMs?: number): Promise<void>;
  /** Creates an empty database on it; resolves its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stopped at once and its directory removed. */
  destroy(): Promise<void>;
}

/** Why a throwaway cluster cannot start here, or null when it can. */
export function pgClusterSkipReason(): string | null {
  const bin = pgBin();
  if (!bin) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin; set STOCKROOM_PG_BIN';
  if (process.getuid?.() === 0 && !fs.existsSync('/usr/sbin/runuser') && !fs.existsSync('/sbin/runuser')) return 'running as root without runuser to start PostgreSQL as the postgres user';
  return null;
}

/**
 * Starts a new cluster listening on 127.0.0.1 (and `extraListen` addresses, e.g. the host side of a
 * veth pair) with trust authentication for user postgres. fsync is off: it is thrown away.
 */
export async function startPgCluster(options: { extraListen?: string[] } = {}): Promise<PgCluster> {
  const bin = pgBin();
  if (!bin) throw new Error(pgClusterSkipReason() ?? 'no PostgreSQL binaries');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-pgcluster-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const run = (cmd: string, args: string[]) => (asRoot ? exec('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : exec(path.join(bin, cmd), args));
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    await exec('chown', ['postgres:postgres', dir]);
  }
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // initdb trusts loopback only: the peers of an extra address (its /30, e.g. a veth pair's other end) too.
  for (const addr of options.extraListen ?? []) fs.appendFileSync(path.join(data, 'pg_hba.conf'), `host all all ${addr}/30 trust\n`);
  const port = await freePort();
  const listen = ['127.0.0.1', ...(options.extraListen ?? [])].join(',');
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=${listen} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = async () => {
    await run('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '60', 'start']);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']).catch((err: unknown) => {
      if (!/no server running|PID file .* does not exist|Is server running/i.test(String((err as { stderr?: string }).stderr ?? err))) throw err;
    });
  };
  await start();
  return {
    port,
    server: `postgresql://postgres@127.0.0.1:${port}`,
    url: (database = 'postgres', host = '127.0.0.1') => `postgresql://postgres@${host}:${port}/${database}`,
    async createDatabase(name: string) {
      await run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]);
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: () => stop('fast'),
    start,
    async restart(downMs = 0) {
      await stop('fast');
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async destroy() {
      await stop('immediate');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

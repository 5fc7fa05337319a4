/**
 * A PostgreSQL cluster of a test's own, on its own port and data directory under the temp dir, so a
 * fault test can stop and restart it without touching the machine's shared server. Made with the
 * installed server's initdb and pg_ctl (/usr/lib/postgresql/<version>/bin, or PG_BIN); as root they
 * run as the `postgres` user through runuser, since initdb refuses root.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ThrowawayPostgres {
  /** Server URL without a database, e.g. postgresql://postgres@127.0.0.1:54123 */
  server: string;
  port: number;
  /** Stops the server (fast shutdown: open connections are terminated, as in a managed restart). */
  stop(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** Stops it and removes its data directory. */
  destroy(): void;
}

function pgBin(): string | null {
  if (process.env.PG_BIN) return fs.existsSync(path.join(process.env.PG_BIN, 'pg_ctl')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

const isRoot = process.getuid?.() === 0;

/** Why a throwaway cluster cannot be made here, or null when it can. */
export function throwawayPostgresSkipReason(): string | null {
  if (!pgBin()) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or PG_BIN';
  if (isRoot) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root without a postgres user to run initdb as';
    }
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Creates and starts a cluster (trust auth, user postgres) on a free port; about 2–4 s. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = pgBin();
  if (!bin) throw new Error(throwawayPostgresSkipReason() ?? 'no PostgreSQL binaries');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  if (isRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    execFileSync(isRoot ? 'runuser' : path.join(bin, cmd), isRoot ? ['-u', 'postgres', '--', path.join(bin, cmd), ...args] : args, { stdio: 'pipe', timeout: 60_000 });
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // Small and quick: no fsync (a test cluster), sockets in its own directory, TCP on 127.0.0.1 only.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c shared_buffers=16MB`;
  const start = () => void run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  start();
  let destroyed = false;
  return {
    server: `postgresql://postgres@127.0.0.1:${port}`,
    port,
    stop,
    start,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      try {
        stop();
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A throwaway PostgreSQL cluster for fault tests and the bench: its own data directory under /tmp and
 * its own port, so restarting it touches no one else's databases (the machine's cluster is shared).
 * Uses the server binaries of the installed PostgreSQL (/usr/lib/postgresql/<n>/bin); run as root, the
 * cluster runs as the `postgres` user (runuser), as PostgreSQL refuses to run as root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ThrowawayCluster {
  /** `postgresql://postgres@127.0.0.1:<port>` (trust auth); add `/<db>`. */
  readonly server: string;
  readonly port: number;
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast: connections are cut, as in a restart) and starts it again. */
  restart(): void;
  stop(): void;
  /** Stops it and removes its data directory. */
  destroy(): void;
}

/** The newest installed server's bin directory, or null when none is installed. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** Why a throwaway cluster cannot be started here, or null when it can. */
export function throwawaySkipReason(): string | null {
  if (!postgresBinDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user to run the cluster as';
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-pgfault-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = (mode: 'fast' | 'immediate') => run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  start();
  const server = `postgresql://postgres@127.0.0.1:${port}`;
  let stopped = false;
  return {
    server,
    port,
    async createDatabase(name) {
      const { Client } = await import('pg');
      const client = new Client({ connectionString: `${server}/postgres` });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `${server}/${name}`;
    },
    restart() {
      stop('fast');
      start();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        stop('immediate');
      } catch {
        // already down
      }
    },
    destroy() {
      this.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

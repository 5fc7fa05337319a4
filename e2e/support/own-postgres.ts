/**
 * A throwaway PostgreSQL cluster of the test's own (initdb + pg_ctl from /usr/lib/postgresql/*\/bin,
 * as user postgres, data under /tmp, on a free port), so a test can stop and start the database
 * under a running server without touching the machine's shared cluster.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface OwnPostgres {
  /** postgresql://postgres@127.0.0.1:PORT/stockroom, created empty. */
  url: string;
  stop(): void;
  start(): void;
  /** Stops the cluster and deletes its data. */
  destroy(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const version = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  if (!version) throw new Error(`no PostgreSQL under ${root}`);
  return path.join(root, version, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** As user postgres when this process is root (initdb refuses root). */
function asPostgres(cmd: string, args: string[]): void {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  execFileSync(file, argv, { stdio: 'pipe' });
}

/** Creates, starts and returns a cluster with an empty `stockroom` database. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-own-pg-'));
  const data = path.join(dir, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const port = await freePort();
  asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  const stop = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  asPostgres(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'stockroom']);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/stockroom`,
    stop,
    start,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

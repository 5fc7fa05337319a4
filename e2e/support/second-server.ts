/**
 * A second production server on the e2e build and database, with its own environment: for what a
 * server configured differently shows (e.g. one without the judge calibration set). It serves the
 * same sessions as the main server (same secret and database; cookies are not port-bound).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { E2E_AUTH_SECRET } from './users';

export interface SecondServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts scripts/serve.mjs on a free port with `env` over the e2e server's settings; resolves once it is ready. */
export async function startSecondServer(env: Record<string, string>): Promise<SecondServer> {
  const dbFile = process.env.E2E_DB_FILE;
  if (!dbFile) throw new Error('E2E_DB_FILE is not set (playwright.config.ts sets it)');
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: `file:${dbFile}`,
      BETTER_AUTH_SECRET: E2E_AUTH_SECRET,
      NEXT_TELEMETRY_DISABLED: '1',
      CHECKPOINT_DISABLE: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`second server did not start in 60 s:\n${out}`)), 60_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /ready on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`second server exited (${code}):\n${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

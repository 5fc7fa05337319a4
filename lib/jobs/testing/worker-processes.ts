/**
 * Real worker processes for tests and the bench: `cli/worker.ts` under node with the tsx loader (what
 * `npm run worker` runs, without regenerating the Prisma clients each time), on a given database, logging one line
 * per stored case so a test can tell which worker did what.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface WorkerProcess {
  readonly proc: ChildProcess;
  /** Cases this worker stored (`suiteRunId setting caseId`). */
  readonly stored: string[];
  /** Everything it printed (for a failing test's message). */
  output(): string;
  /** SIGKILL: no cleanup, no graceful shutdown. */
  kill9(): void;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}


export async function spawnWorker(options: { databaseUrl: string; concurrency: number; leaseMs?: number; env?: Record<string, string> }): Promise<WorkerProcess> {
  // node itself with tsx as a loader (not the tsx wrapper, which would outlive a SIGKILL's target as an orphan).
  const proc = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/worker.ts', '--concurrency', String(options.concurrency)], {
    cwd: path.resolve('.'),
    env: {
      ...process.env,
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      STOCKROOM_WORKER_LOG_CASES: '1',
      ...(options.leaseMs !== undefined ? { STOCKROOM_WORKER_LEASE_MS: String(options.leaseMs) } : {}),
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stored: string[] = [];
  let out = '';
  let buffered = '';
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('stored ')) stored.push(line.slice('stored '.length));
        if (/^stockroom worker .* ready/.test(line)) resolve();
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${out}`)));
  });
  await ready;
  return {
    proc,
    stored,
    output: () => out,
    kill9: () => proc.kill('SIGKILL'),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

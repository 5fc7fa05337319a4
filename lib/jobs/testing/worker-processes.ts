/**
 * Real worker processes for tests and the bench: `cli/worker.ts` under node with the tsx loader (what
 * `npm run worker` runs, without regenerating the Prisma clients each time), on a given database, logging one line
 * per stored case so a test can tell which worker did what.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The processes descended from `pid` (children, grandchildren…), read from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) {
      if (parent !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** Whether a process still runs (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export interface WorkerProcess {
  readonly proc: ChildProcess;
  /** Cases this worker stored (`suiteRunId setting caseId`). */
  readonly stored: string[];
  /** Every line it printed to stdout, in order (`started …`, `stored …`, `stockroom worker … stopping`). */
  readonly lines: string[];
  /** Everything it printed (for a failing test's message). */
  output(): string;
  /** SIGKILL: no cleanup, no graceful shutdown. */
  kill9(): void;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** Resolves with the exit code once the spawned process has exited. */
  readonly exited: Promise<number | null>;
}


/** How long a spawned worker may take to be ready (migrations, warm-up) on a loaded shared machine before it counts as stuck. */
export const READY_LIMIT_MS = 180_000;

export async function spawnWorker(options: {
  databaseUrl: string;
  concurrency: number;
  leaseMs?: number;
  graceMs?: number;
  env?: Record<string, string>;
  /** `npm`: started as an operator does, `npm run worker` (npm, then the tsx wrapper, then node); default node itself. */
  via?: 'node' | 'npm';
  /** A command the worker runs under (`ip netns exec <ns>`: inside a network namespace); it must exec, so signals reach node. */
  wrap?: string[];
  /** How long it may take to say it is ready before it is killed and this throws (default READY_LIMIT_MS). */
  readyLimitMs?: number;
}): Promise<WorkerProcess> {
  // node itself with tsx as a loader (not the tsx wrapper, which would outlive a SIGKILL's target as an orphan).
  const [bare, bareArgs] =
    options.via === 'npm'
      ? ['npm', ['run', '--silent', 'worker', '--', '--concurrency', String(options.concurrency)]]
      : [process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/worker.ts', '--concurrency', String(options.concurrency)]];
  const [command, args] = options.wrap?.length ? [options.wrap[0]!, [...options.wrap.slice(1), bare, ...bareArgs]] : [bare, bareArgs];
  const proc = spawn(command, args, {
    cwd: path.resolve('.'),
    env: {
      ...process.env,
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      STOCKROOM_WORKER_LOG_CASES: '1',
      ...(options.leaseMs !== undefined ? { STOCKROOM_WORKER_LEASE_MS: String(options.leaseMs) } : {}),
      ...(options.graceMs !== undefined ? { STOCKROOM_WORKER_GRACE_MS: String(options.graceMs) } : {}),
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stored: string[] = [];
  const lines: string[] = [];
  let out = '';
  let buffered = '';
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (line.startsWith('stored ')) stored.push(line.slice('stored '.length));
        if (/^stockroom worker .* ready/.test(line)) resolve();
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${out}`)));
  });
  // A worker that never says it is ready is a bounded failure, not a wait without end (a drill or a test would hang on it).
  const limitMs = options.readyLimitMs ?? READY_LIMIT_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the worker (pid ${proc.pid}) was not ready after ${limitMs} ms and was killed; its output:\n${out.slice(-4000)}`));
    }, limitMs);
  });
  try {
    await Promise.race([ready, late]);
  } finally {
    clearTimeout(timer);
  }
  return {
    proc,
    stored,
    lines,
    output: () => out,
    exited,
    kill9: () => proc.kill('SIGKILL'),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

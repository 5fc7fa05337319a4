/**
 * `--queue` and `--detach` for eval and matrix: the suite is stored (needs --save --tenant T --as
 * EMAIL) and enqueued on the job queue instead of run in this process, then followed with a progress
 * bar counted from the stored runs, with the time left. `--detach` prints the suite id and returns.
 * On PostgreSQL the workers (`npm run worker`) run it; on the embedded SQLite file this process
 * runs the in-process queue while it follows (nothing else would), so `--detach` needs PostgreSQL.
 */
import { formatEta } from '../lib/format/eta';
import type { HarnessConfig } from '../lib/harness/config';
import type { GoldenFile } from '../lib/eval/golden';
import { formatMatrixTable } from '../lib/eval/matrix-table';
import type { AggregateMetrics } from '../lib/eval/aggregate';
import { formatProgress } from '../lib/eval/progress';
import { getSuiteProgress, cancelSuiteRun, workerPresence } from '../lib/db/suites/suite-jobs';
import { noWorkerNotice } from '../lib/format/workers';
import { getSuiteRunOrThrow } from '../lib/db/suites/suites';
import { createJobQueue, runQueueOf } from '../lib/jobs/queue';
import type { Dataset } from '../lib/stockroom/dataset/types';
import { queueSuite } from '../lib/runs/suites';
import { CliUsageError, type FlagSpec, type ParsedArgs } from './args';
import type { SaveTarget } from './save';

export const QUEUE_FLAGS: FlagSpec = {
  queue: { type: 'boolean', description: 'enqueue on the job queue (needs --save) and follow it with a progress bar' },
  detach: { type: 'boolean', description: 'with --queue: print the suite id and return at once (PostgreSQL; workers run it)' },
};

/** How often the CLI reads the stored progress while following. */
const FOLLOW_POLL_MS = 500;

/** Checks the queue flags before anything runs; true when the suite is to be queued. */
export function wantsQueue(args: ParsedArgs): boolean {
  const queue = args.flags.queue === true;
  if (args.flags.detach === true && !queue) throw new CliUsageError('--detach only applies with --queue');
  if (queue && args.flags.save !== true) throw new CliUsageError('--queue stores the suite where the workers find it: add --save --tenant T --as EMAIL');
  return queue;
}

/** Queued suites run on the workers with the Stockroom tools over the configured transport: an external tool server is refused. */
export function refuseExternalToolsWhenQueued(args: ParsedArgs): void {
  for (const flag of ['mcp-url', 'mcp-command', 'mcp-server'] as const) {
    if (args.flags[flag] !== undefined) throw new CliUsageError(`--${flag} cannot be used with --queue: queued suites run on the workers with the Stockroom tools`);
  }
}

export interface QueueCommandInput {
  kind: 'eval' | 'matrix';
  dataset: Dataset;
  golden: GoldenFile;
  config: HarnessConfig;
  settings: readonly string[];
  /** Runs per case (default 1): the workers store each (setting, case) this many times. */
  epochs?: number;
  target: SaveTarget;
  detach: boolean;
  json: boolean;
}

/** Enqueues the suite and follows it (or detaches); returns the exit code. Ctrl-C while following cancels the suite. */
export async function queueAndFollow(input: QueueCommandInput): Promise<number> {
  const queue = createJobQueue();
  if (input.detach && queue.backend === 'in-process') {
    await queue.close();
    throw new CliUsageError('--detach needs DATABASE_URL=postgres://… and workers (npm run worker); on the embedded SQLite file the suite runs in this process, so follow it without --detach');
  }
  const { db, owner } = input.target;
  try {
    const { suiteRunId, total } = await queueSuite({ kind: input.kind, dataset: input.dataset, golden: input.golden, config: input.config, settings: input.settings, owner, epochs: input.epochs }, runQueueOf(queue), db);
    if (input.detach) {
      const waiting = noWorkerNotice('queued', await workerPresence(db));
      if (waiting) process.stderr.write(`${waiting}\n`);
      process.stdout.write(input.json ? JSON.stringify({ suiteId: suiteRunId, total }) + '\n' : `${suiteRunId}\n`);
      return 0;
    }
    // Ctrl-C cancels the suite. The cancel is stored before this process may exit, even when Ctrl-C
    // comes twice (a terminal signals npm, the tsx wrapper and node alike, and tsx relays it again):
    // exiting first left the suite queued for the workers to run whole.
    let cancelling: Promise<void> | null = null;
    const onSigint = () => {
      if (cancelling) {
        process.stderr.write(`storing the cancel of suite ${suiteRunId}…\n`);
        void cancelling.then(() => process.exit(130));
        return;
      }
      process.stderr.write(`\ncancelling suite ${suiteRunId}… (Ctrl-C again to quit once the cancel is stored)\n`);
      cancelling = cancelSuiteRun(suiteRunId, db).then(
        () => undefined,
        (err: unknown) => void process.stderr.write(`could not cancel suite ${suiteRunId}: ${err instanceof Error ? err.message : String(err)} (npm run stockroom -- suite cancel ${suiteRunId} …)\n`),
      );
    };
    process.on('SIGINT', onSigint);
    const tty = process.stderr.isTTY === true && !input.json;
    let warned = false;
    try {
      for (;;) {
        const p = await getSuiteProgress(suiteRunId, db);
        const waiting = warned ? null : noWorkerNotice(p.status, p.workers);
        if (waiting) {
          process.stderr.write(`${tty ? '\r' : ''}${waiting}\n`);
          warned = true;
        }
        const line = formatProgress(p.stored, p.total, p.etaMs !== null ? formatEta(p.etaMs) : p.status);
        if (tty) process.stderr.write(`\r${line.padEnd(72)}`);
        if (p.status !== 'queued' && p.status !== 'running') break;
        await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
      }
    } finally {
      process.off('SIGINT', onSigint);
      if (tty) process.stderr.write('\n');
    }
    const suite = await getSuiteRunOrThrow(suiteRunId, db);
    const metrics = Object.fromEntries(suite.settings.map((s) => [s.setting, s.metrics as unknown as AggregateMetrics]));
    if (input.json) {
      process.stdout.write(JSON.stringify({ suiteId: suiteRunId, status: suite.status, total, stored: suite.completed, error: suite.error, metrics }, null, 2) + '\n');
    } else {
      if (input.kind === 'matrix' && suite.settings.length > 0) process.stdout.write(formatMatrixTable(metrics) + '\n\n');
      process.stdout.write(`suite ${suiteRunId} ${suite.status}: ${suite.completed} of ${total} runs stored in tenant ${owner.tenant}${suite.error ? ` (${suite.error})` : ''}\n`);
    }
    return suite.status === 'done' ? 0 : suite.status === 'cancelled' ? 130 : 1;
  } finally {
    await queue.close();
  }
}

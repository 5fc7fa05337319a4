/**
 * `stockroom jobs [--failed N] [--json]`: the PostgreSQL job queue as an operator sees it: per kind,
 * the jobs waiting (new or waiting for a retry), running, and failed for good, then the failed
 * jobs with their errors, newest first. A job failed for good is never retried and blocks nothing:
 * the same key enqueued again (the next sweep, a repeated fan-out) replaces it.
 */
import { resolveDatabaseUrl } from '../../lib/db/core/database-url';
import { GraphileQueue } from '../../lib/jobs/graphile';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';

const FLAGS = {
  failed: { type: 'string', description: 'how many failed jobs to list (default 20, up to 1000)' },
  json: { type: 'boolean', description: 'print JSON' },
} as const;

export const command: CliCommand = {
  name: 'jobs',
  summary: 'the job queue on PostgreSQL: waiting, running and failed jobs, with the errors',
  usage: 'jobs [--failed N] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError('jobs takes no arguments');
    const raw = stringFlag(args, 'failed');
    const limit = raw === undefined ? 20 : Number(raw);
    if (!Number.isInteger(limit) || limit < 0 || limit > 1000) throw new CliUsageError(`--failed must be an integer from 0 to 1000 (got '${raw}')`);
    const target = resolveDatabaseUrl(process.env.DATABASE_URL);
    if (target.provider !== 'postgres') throw new CliUsageError('jobs needs DATABASE_URL=postgres://… (on the embedded SQLite default, jobs run inside the server and are not stored)');
    const db = await openMigratedDatabase();
    await db.close();
    const queue = new GraphileQueue(target.url);
    try {
      const report = await queue.report(limit);
      if (args.flags.json) {
        process.stdout.write(JSON.stringify(report) + '\n');
        return 0;
      }
      if (report.byKind.length === 0) process.stdout.write('no jobs queued, running or failed\n');
      for (const k of report.byKind) process.stdout.write(`${k.kind.padEnd(16)} ${k.waiting} waiting, ${k.running} running, ${k.failed} failed\n`);
      for (const f of report.failed) {
        process.stdout.write(`failed ${f.at} ${f.kind}${f.key ? ` ${f.key}` : ''} (job ${f.id}, ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}): ${(f.error ?? 'no error recorded').trim().split('\n')[0]}\n`);
      }
      return 0;
    } finally {
      await queue.close();
    }
  },
};

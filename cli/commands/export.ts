/**
 * `stockroom export RUN_ID | --suite ID [--out FILE]`: a stored run as `stockroom.run/v1` JSON, or a
 * suite as `stockroom.suite/v1` JSONL, to stdout or a file. `import` reads both back.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parseArgs, stringFlag } from '../args';
import { CliUsageError, type CliCommand } from '../command';
import { openMigratedDatabase } from '../database';
import { exportRunFile, suiteJsonl } from '../../lib/transfer/export-runs';
import { NotFoundError } from '../../lib/db/errors';

const FLAGS = {
  suite: { type: 'string', description: 'export this suite (eval or matrix) as JSONL' },
  out: { type: 'string', description: 'write to this file instead of stdout' },
} as const;

export const command: CliCommand = {
  name: 'export',
  summary: 'export a stored run as JSON, or a suite as JSONL',
  usage: 'export RUN_ID | --suite ID [--out FILE]',
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const suite = stringFlag(args, 'suite');
    const runId = args.positionals[0];
    if ((suite === undefined) === (runId === undefined) || args.positionals.length > 1) throw new CliUsageError('give either one RUN_ID or --suite ID');
    const out = stringFlag(args, 'out');
    const sink = out ? createWriteStream(out) : process.stdout;
    const db = await openMigratedDatabase();
    try {
      if (runId !== undefined) {
        sink.write(JSON.stringify(await exportRunFile(runId, db), null, 2) + '\n');
      } else {
        for await (const line of await suiteJsonl(suite!, db)) if (!sink.write(line)) await once(sink, 'drain');
      }
      if (out) {
        (sink as ReturnType<typeof createWriteStream>).end();
        await finished(sink);
        process.stderr.write(`export: wrote ${out}\n`);
      }
      return 0;
    } catch (err) {
      if (err instanceof NotFoundError) {
        process.stderr.write(`stockroom export: no ${err.entity} '${runId ?? suite}'\n`);
        return 2;
      }
      throw err;
    } finally {
      await db.close();
    }
  },
};

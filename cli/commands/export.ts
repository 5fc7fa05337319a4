/**
 * `stockroom export RUN_ID | --suite ID [--out FILE]`: a stored run as `stockroom.run/v1` JSON, or a
 * suite as `stockroom.suite/v1` JSONL, to stdout or a file. `import` reads both back.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';
import { exportRunFile, suiteJsonl } from '../../lib/transfer/export-runs';
import { NotFoundError } from '../../lib/db/core/errors';
import { TenantSchema } from '../../lib/schemas/datasets';

const FLAGS = {
  tenant: { type: 'string', description: 'the tenant whose run or suite it is (another tenant\'s answers as not found)' },
  suite: { type: 'string', description: 'export this suite (eval or matrix) as JSONL' },
  out: { type: 'string', description: 'write to this file instead of stdout' },
} as const;

export const command: CliCommand = {
  name: 'export',
  summary: 'export a stored run as JSON, or a suite as JSONL',
  usage: 'export RUN_ID | --suite ID --tenant T [--out FILE]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const suite = stringFlag(args, 'suite');
    const runId = args.positionals[0];
    if ((suite === undefined) === (runId === undefined) || args.positionals.length > 1) throw new CliUsageError('give either one RUN_ID or --suite ID');
    const tenant = TenantSchema.safeParse(stringFlag(args, 'tenant') ?? '');
    if (!tenant.success) throw new CliUsageError(`--tenant is required: ${tenant.error.issues[0]?.message ?? 'not a tenant name'}`);
    const out = stringFlag(args, 'out');
    const db = await openMigratedDatabase();
    let sink: NodeJS.WritableStream = process.stdout;
    try {
      // Found (and in the tenant) before the output file is created.
      const lines = runId !== undefined ? [JSON.stringify(await exportRunFile(runId, tenant.data, db), null, 2) + '\n'] : await suiteJsonl(suite!, tenant.data, db);
      if (out) sink = createWriteStream(out);
      for await (const line of lines) if (!sink.write(line)) await once(sink, 'drain');
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

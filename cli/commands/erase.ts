/**
 * `stockroom erase --run ID | --subject ID --tenant T --as EMAIL [--out FILE]`: erases the content of
 * a run, or of every run of a subject (the dashboard user a run acts for, a session id, an imported
 * trace's user.id), in tenant T, as an admin of T; keeps the digests and the evidence chain, records
 * the erasure as an evidence event, and prints (or writes) the receipt, signed with the evidence key.
 * Another tenant's run or subject is not found. Interrupted, it is run again to complete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eraseContent } from '../../lib/db/governance/erasure';
import { InvalidInputError, NotFoundError } from '../../lib/db/core/errors';
import { TenantSchema } from '../../lib/schemas/datasets';
import { actingUserId } from '../acting-user';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';

const FLAGS: FlagSpec = {
  run: { type: 'string', description: 'the run whose content to erase' },
  subject: { type: 'string', description: 'erase every run of this subject: a dashboard user id, a session id or an imported user.id' },
  tenant: { type: 'string', description: 'the tenant the run or subject belongs to' },
  as: { type: 'string', description: 'the dashboard user erasing (admin in the tenant)' },
  out: { type: 'string', description: 'write the signed receipt to FILE (default: stdout)' },
};

export const command: CliCommand = {
  name: 'erase',
  summary: 'erase the content of a run or of a subject\'s runs, keeping the evidence verifiable; prints a signed receipt',
  usage: 'erase --run ID | --subject ID --tenant T --as EMAIL [--out FILE]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected ${args.positionals.join(' ')}`);
    const run = stringFlag(args, 'run');
    const subject = stringFlag(args, 'subject');
    if ((run === undefined) === (subject === undefined)) throw new CliUsageError('--run or --subject: name exactly one');
    const tenant = TenantSchema.safeParse(stringFlag(args, 'tenant'));
    if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'name the tenant'}`);
    const db = await openMigratedDatabase();
    try {
      const by = await actingUserId(db.prisma, stringFlag(args, 'as'), tenant.data, 'admin', 'erases');
      let receipt;
      try {
        receipt = await eraseContent(tenant.data, run !== undefined ? { run } : { subject: subject! }, by, db);
      } catch (err) {
        if (err instanceof NotFoundError) {
          process.stderr.write(`erase: ${run !== undefined ? `run ${run}` : `subject ${subject}`} not found in tenant ${tenant.data}\n`);
          return 1;
        }
        if (err instanceof InvalidInputError) {
          process.stderr.write(`erase: ${err.message}\n`);
          return 1;
        }
        throw err;
      }
      const text = JSON.stringify(receipt, null, 2) + '\n';
      const out = stringFlag(args, 'out');
      if (out === undefined) process.stdout.write(text);
      else fs.writeFileSync(path.resolve(out), text);
      const done = receipt.runs.filter((r) => !r.already).length;
      process.stderr.write(`erase: ${done} run(s) erased${receipt.runs.length > done ? `, ${receipt.runs.length - done} already erased` : ''} in tenant ${tenant.data}${receipt.pseudonymKey === 'destroyed' ? '; its pseudonym key destroyed' : ''}\n`);
      return 0;
    } finally {
      await db.close();
    }
  },
};

/**
 * `stockroom redact --rewrite --tenant T [--dry-run] [--json] --as EMAIL`: rewrites the content tenant
 * T stored before its current redaction classes applied (runs, the raw OTLP rows of imported traces,
 * reviewers' label comments, governed-run records) under those classes, as an admin of T, in
 * batches each recorded as a `redaction_rewrite` evidence event (lib/db/runs/redaction-rewrite.ts).
 * Interrupted, it is run again to complete; `audit verify` then counts no run stored before them.
 */
import { InvalidInputError } from '../../lib/db/core/errors';
import { rewriteRedaction } from '../../lib/db/runs/redaction-rewrite';
import { PolicyFileError } from '../../lib/governance/errors';
import { TenantSchema } from '../../lib/schemas/datasets';
import { actingUserId } from '../acting-user';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';

const FLAGS: FlagSpec = {
  rewrite: { type: 'boolean', description: 'rewrite content stored before the tenant\'s current redaction classes applied' },
  tenant: { type: 'string', description: 'the tenant whose content to rewrite' },
  'dry-run': { type: 'boolean', description: 'count the runs due; rewrite nothing' },
  json: { type: 'boolean', description: 'print the report as JSON' },
  as: { type: 'string', description: 'the dashboard user rewriting (admin in the tenant)' },
};

export const command: CliCommand = {
  name: 'redact',
  summary: 'rewrite content a tenant stored before its current redaction classes applied, in batches recorded in the evidence (--dry-run: count only)',
  usage: 'redact --rewrite --tenant T [--dry-run] [--json] --as EMAIL',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected ${args.positionals.join(' ')}`);
    if (args.flags.rewrite !== true) throw new CliUsageError('--rewrite: say what to do (redact --rewrite rewrites stored content under the current classes)');
    const tenant = TenantSchema.safeParse(stringFlag(args, 'tenant'));
    if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'name the tenant'}`);
    const dryRun = args.flags['dry-run'] === true;
    const db = await openMigratedDatabase();
    try {
      const by = await actingUserId(db.prisma, stringFlag(args, 'as'), tenant.data, 'admin', 'rewrites its content');
      let report;
      try {
        report = await rewriteRedaction(tenant.data, { by, dryRun, db, onBatch: args.flags.json === true || dryRun ? undefined : (n) => process.stderr.write(`redact: ${n} run(s) rewritten so far\n`) });
      } catch (err) {
        if (err instanceof InvalidInputError || err instanceof PolicyFileError) {
          process.stderr.write(`redact: ${err.message}\n`);
          return 1;
        }
        throw err;
      }
      if (args.flags.json === true) {
        process.stdout.write(JSON.stringify(report, null, 2) + '\n');
        return 0;
      }
      const classes = `${report.classes.join(', ')} (since ${report.since})`;
      if (report.dryRun) process.stdout.write(`redact (dry run): ${report.runs} run(s) of tenant ${report.tenant} stored before ${classes} would be rewritten\n`);
      else
        process.stdout.write(
          `redact: ${report.runs} run(s) of tenant ${report.tenant} rewritten under ${classes} in ${report.batches} batch(es): ${report.labels} label comment(s), ${report.otlpRows} raw OTLP row(s), ${report.governed} governed-run record(s); ${report.left} left\n`,
        );
      return 0;
    } finally {
      await db.close();
    }
  },
};

/**
 * `stockroom retention [--dry-run] [--tenant T] [--json]`: applies the retention schedule of the
 * policy file (STOCKROOM_POLICY_FILE or config/policy.json) now, or with --dry-run only counts, and
 * prints what goes and what stays by tenant and class (lib/db/traces/retention.ts). The sweep applies the
 * same schedule every minute; this is for seeing it, or applying it at once.
 */
import { applyRetention } from '../../lib/db/traces/retention';
import { currentPolicy } from '../../lib/governance/current-policy';
import { PolicyFileError } from '../../lib/governance/errors';
import { TenantSchema } from '../../lib/schemas/datasets';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';

const FLAGS: FlagSpec = {
  'dry-run': { type: 'boolean', description: 'count what would go; remove nothing' },
  tenant: { type: 'string', description: 'only this tenant (default: every tenant the policy names)' },
  json: { type: 'boolean', description: 'print the report as JSON' },
};

export const command: CliCommand = {
  name: 'retention',
  summary: 'apply the retention schedule of the policy file now (or --dry-run: count only) and print what goes and what stays',
  usage: 'retention [--dry-run] [--tenant T] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected ${args.positionals.join(' ')}`);
    const tenantFlag = stringFlag(args, 'tenant');
    const tenant = tenantFlag === undefined ? undefined : TenantSchema.safeParse(tenantFlag);
    if (tenant && !tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'name the tenant'}`);
    let policy;
    try {
      policy = currentPolicy();
    } catch (err) {
      if (!(err instanceof PolicyFileError)) throw err;
      process.stderr.write(`retention: ${err.message}\n`);
      return 2;
    }
    const db = await openMigratedDatabase();
    try {
      const report = await applyRetention(policy, { tenant: tenant?.data, dryRun: args.flags['dry-run'] === true, db });
      if (args.flags.json === true) {
        process.stdout.write(JSON.stringify(report, null, 2) + '\n');
        return 0;
      }
      const verb = report.dryRun ? 'would go' : 'went';
      process.stdout.write(`retention ${report.dryRun ? '(dry run) ' : ''}under policy v${report.policyVersion.slice(0, 12)}:\n`);
      for (const l of report.lines) process.stdout.write(`  ${(l.tenant ?? '(all tenants)').padEnd(16)} ${l.what.padEnd(15)} ${l.rule.padEnd(52)} ${String(l.goes).padStart(8)} ${verb}, ${l.stays} stay\n`);
      return 0;
    } finally {
      await db.close();
    }
  },
};

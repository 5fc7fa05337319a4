/**
 * `stockroom import FILE --tenant T`: stores the runs in an OTLP/JSON trace export (GenAI or
 * OpenInference conventions), a run file or a suite JSONL from `export`, marked imported.
 */
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';
import { importFile } from '../../lib/transfer/import-file';
import { getIdentity } from '../../lib/db/governance-members';
import { hasTenantRole } from '../../lib/governance/principal';
import { TenantSchema } from '../../lib/schemas/datasets';

const FLAGS = {
  tenant: { type: 'string', description: 'the tenant the imported runs belong to' },
  as: { type: 'string', description: 'email of the dashboard user the runs are attributed to (needs operator in --tenant)' },
  json: { type: 'boolean', description: 'print the result as JSON' },
} as const;

export const command: CliCommand = {
  name: 'import',
  summary: 'import an OTLP/JSON trace file, a run JSON or a suite JSONL as imported runs',
  usage: 'import FILE --tenant T [--as EMAIL] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const file = args.positionals[0];
    if (file === undefined || args.positionals.length > 1) throw new CliUsageError('import needs exactly one FILE');
    const rawTenant = stringFlag(args, 'tenant');
    if (!rawTenant) throw new CliUsageError('--tenant is required (the tenant the runs belong to)');
    const parsed = TenantSchema.safeParse(rawTenant);
    if (!parsed.success) throw new CliUsageError(`--tenant: ${parsed.error.issues[0]?.message ?? 'not a tenant name'}`);
    const tenant = parsed.data;
    const db = await openMigratedDatabase();
    try {
      const email = stringFlag(args, 'as');
      let createdBy: string | null = null;
      if (email !== undefined) {
        const user = await db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
        const identity = user ? await getIdentity(db.prisma, user.id) : null;
        if (!user || !identity || !hasTenantRole(identity, tenant, 'operator')) {
          throw new CliUsageError(`--as ${email}: no dashboard user with the operator role in tenant ${tenant}; nothing was stored`);
        }
        createdBy = user.id;
      }
      const outcome = await importFile(file, { tenant, createdBy, db });
      if (args.flags.json) {
        process.stdout.write(JSON.stringify(outcome, null, 2) + '\n');
      } else if (outcome.kind === 'otlp') {
        const { runs, spans, skippedTraces } = outcome.result;
        process.stdout.write(`imported ${runs.length} run(s) from ${spans} span(s) for tenant ${tenant}${skippedTraces ? `; ${skippedTraces} trace(s) without model or tool spans left out` : ''}\n`);
        for (const r of runs) process.stdout.write(`  ${r.id}  trace ${r.traceId}  ${r.format}  ${r.modelCalls} model call(s), ${r.toolCalls} tool call(s), ${r.terminationReason}\n`);
      } else {
        process.stdout.write(`imported ${outcome.ids.length} run(s) from a ${outcome.kind} file for tenant ${tenant}\n`);
        for (const id of outcome.ids) process.stdout.write(`  ${id}\n`);
      }
      return 0;
    } finally {
      await db.close();
    }
  },
};

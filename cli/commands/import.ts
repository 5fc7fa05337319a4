/**
 * `stockroom import FILE… --tenant T`: stores the runs in OTLP/JSON trace exports (GenAI,
 * OpenInference, AI SDK or OpenLLMetry conventions), run files or suite JSONL from `export`, marked
 * imported. Trace files are assembled like the receiver's requests: one trace spread over several
 * files is one run, and a file imported twice adds nothing.
 */
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';
import { importFile } from '../../lib/transfer/import-file';
import { getIdentity } from '../../lib/db/governance/governance-members';
import { hasTenantRole } from '../../lib/governance/principal';
import { TenantSchema } from '../../lib/schemas/datasets';

const FLAGS = {
  tenant: { type: 'string', description: 'the tenant the imported runs belong to' },
  as: { type: 'string', description: 'email of the dashboard user the runs are attributed to (needs operator in --tenant)' },
  json: { type: 'boolean', description: 'print the result as JSON' },
} as const;

export const command: CliCommand = {
  name: 'import',
  summary: 'import OTLP/JSON trace files, run JSON or suite JSONL as imported runs',
  usage: 'import FILE... --tenant T [--as EMAIL] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const files = args.positionals;
    if (files.length === 0) throw new CliUsageError('import needs at least one FILE');
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
      const outcomes = [];
      for (const file of files) {
        const outcome = await importFile(file, { tenant, createdBy, db });
        outcomes.push({ file, ...outcome });
        if (args.flags.json) continue;
        if (outcome.kind === 'otlp') {
          const { runs, spans, skippedTraces, duplicateSpans, pendingTraces } = outcome.result;
          const notes = [
            duplicateSpans ? `${duplicateSpans} span(s) already stored` : '',
            pendingTraces ? `${pendingTraces} trace(s) kept without a model or tool span yet` : '',
            skippedTraces ? `${skippedTraces} trace(s) without agent spans left out` : '',
          ].filter(Boolean);
          process.stdout.write(`${file}: ${runs.length} run(s) built from ${spans} span(s) for tenant ${tenant}${notes.length ? `; ${notes.join('; ')}` : ''}\n`);
          for (const r of runs) process.stdout.write(`  ${r.id}  trace ${r.traceId}  ${r.format}  ${r.modelCalls} model call(s), ${r.toolCalls} tool call(s), ${r.terminationReason}${r.status === 'running' ? ' (running: root span not received yet)' : ''}\n`);
        } else {
          process.stdout.write(`${file}: imported ${outcome.ids.length} run(s) from a ${outcome.kind} file for tenant ${tenant}\n`);
          for (const id of outcome.ids) process.stdout.write(`  ${id}\n`);
        }
      }
      if (args.flags.json) process.stdout.write(JSON.stringify(files.length === 1 ? outcomes[0] : outcomes, null, 2) + '\n');
      return 0;
    } finally {
      await db.close();
    }
  },
};

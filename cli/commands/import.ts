/**
 * `stockroom import FILE --tenant T`: stores the runs in an OTLP/JSON trace export (GenAI or
 * OpenInference conventions), a run file or a suite JSONL from `export`, marked imported.
 */
import { parseArgs, stringFlag } from '../args';
import { CliUsageError, type CliCommand } from '../command';
import { openMigratedDatabase } from '../database';
import { importFile } from '../../lib/transfer/import-file';
import { TENANT_PATTERN } from '../../lib/otel/ingest-tokens';

const FLAGS = {
  tenant: { type: 'string', description: 'the tenant the imported runs belong to' },
  json: { type: 'boolean', description: 'print the result as JSON' },
} as const;

export const command: CliCommand = {
  name: 'import',
  summary: 'import an OTLP/JSON trace file, a run JSON or a suite JSONL as imported runs',
  usage: 'import FILE --tenant T [--json]',
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const file = args.positionals[0];
    if (file === undefined || args.positionals.length > 1) throw new CliUsageError('import needs exactly one FILE');
    const tenant = stringFlag(args, 'tenant');
    if (!tenant) throw new CliUsageError('--tenant is required (the tenant the runs belong to)');
    if (!TENANT_PATTERN.test(tenant)) throw new CliUsageError(`--tenant must be letters, digits, '.', '_' or '-' (at most 64); got '${tenant}'`);
    const db = await openMigratedDatabase();
    try {
      const outcome = await importFile(file, { tenant, createdBy: 'cli-import', db });
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

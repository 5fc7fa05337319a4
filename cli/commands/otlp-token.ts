/**
 * `stockroom otlp-token --tenant T`: a new bearer token for the OTLP receiver and the
 * STOCKROOM_OTLP_TOKENS entry (its SHA-256) to configure; only the hash is ever stored.
 */
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { newIngestToken, OTLP_TOKENS_VAR } from '../../lib/otel/ingest-tokens';

const FLAGS = { tenant: { type: 'string', description: 'the tenant whose traces the token sends' } } as const;

export const command: CliCommand = {
  name: 'otlp-token',
  summary: 'make a bearer token for the OTLP trace receiver (prints the token and its hashed config entry)',
  usage: 'otlp-token --tenant T',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const tenant = stringFlag(args, 'tenant');
    if (!tenant || args.positionals.length > 0) throw new CliUsageError('otlp-token needs --tenant T and nothing else');
    const { token, entry } = newIngestToken(tenant);
    process.stdout.write(
      `token (give it to the sender; it is not stored): ${token}\n` +
        `add to ${OTLP_TOKENS_VAR} (comma-separated entries): ${entry}\n`,
    );
    return 0;
  },
};

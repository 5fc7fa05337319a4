/**
 * `stockroom model-server --port P [--dataset DIR] [--latency-ms N]`: the deterministic fake model
 * as an OpenAI-compatible endpoint until stopped (Ctrl-C), for offline live runs, benches and
 * classroom demos: `--model openai-compatible:stockroom-fake --model-base-url http://127.0.0.1:P/v1`.
 */
import { startModelServer } from '../../lib/models/model-server/server';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { datasetFromArgs } from '../common';

const FLAGS = {
  port: { type: 'string', description: 'TCP port (0 picks a free one)' },
  host: { type: 'string', description: 'interface to listen on (default 127.0.0.1)' },
  dataset: { type: 'string', description: 'dataset directory whose mock scripts and catalogue the fake model uses (default: data/)' },
  'latency-ms': { type: 'string', description: 'added delay per completion, ms (default 0)' },
} as const;

function nonNegativeInt(flag: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new CliUsageError(`--${flag} must be an integer from 0 to ${max}; got '${raw}'`);
  return Number(raw);
}

export const command: CliCommand = {
  name: 'model-server',
  summary: 'serve the deterministic fake model as an OpenAI-compatible endpoint (model stockroom-fake)',
  usage: 'model-server --port P [--host 127.0.0.1] [--dataset DIR] [--latency-ms N]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected argument '${args.positionals[0]}'`);
    if (stringFlag(args, 'port') === undefined) throw new CliUsageError('--port is required');
    const port = nonNegativeInt('port', stringFlag(args, 'port'), 0, 65535);
    const latencyMs = nonNegativeInt('latency-ms', stringFlag(args, 'latency-ms'), 0, 600_000);
    const dataset = datasetFromArgs(args);
    const server = await startModelServer({ dataset, port, host: stringFlag(args, 'host'), latencyMs });
    process.stderr.write(`model-server: stockroom-fake on ${server.url} (dataset ${dataset.name}, latency ${latencyMs} ms); Ctrl-C to stop\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  },
};

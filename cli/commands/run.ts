/** `stockroom run "<query>" [--case ID] …`: one harness run, printed for a person or as JSON. */
import { parseArgs, stringFlag } from '../args';
import { CliUsageError, type CliCommand } from '../command';
import { configFromArgs, createExecutorFromArgs, datasetFromArgs, HARNESS_FLAGS } from '../common';
import { createStockroomAgent } from '../../lib/stockroom/agent';
import { formatRun } from '../format-run';
import { exportRunTrace } from '../../lib/otel/run-exporter';

const FLAGS = {
  ...HARNESS_FLAGS,
  case: { type: 'string', description: 'golden case id (replays its mock script when the dataset has one)' },
  json: { type: 'boolean', description: 'print the RunResult as JSON' },
} as const;

export const command: CliCommand = {
  name: 'run',
  summary: 'run the agent on one query and print its trajectory',
  usage: 'run "<query>" [--case ID] [--dataset DIR] [--weaknesses a,b] [--guards grounded_write] [--transport local|mcp-memory|mcp-stdio|mcp-http] [--json]',
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const query = args.positionals[0];
    if (query === undefined || args.positionals.length > 1) throw new CliUsageError('run needs exactly one query (quote it)');
    const config = configFromArgs(args);
    const dataset = datasetFromArgs(args);
    const executor = await createExecutorFromArgs(args, config, dataset);
    const agent = await createStockroomAgent({ dataset, config, executor, onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }) });
    try {
      const result = await agent.run(query, stringFlag(args, 'case') ?? null);
      if (args.flags.json) {
        const { modelInputs: _omitted, ...rest } = result;
        process.stdout.write(JSON.stringify(rest, null, 2) + '\n');
      } else {
        process.stdout.write(formatRun(result) + '\n');
      }
      return 0;
    } finally {
      await agent.close();
    }
  },
};

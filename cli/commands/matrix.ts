/**
 * `stockroom matrix`: the golden set under `none` and each weakness flag alone, printed as the
 * published table with deltas against `none` (or as JSON keyed by setting).
 */
import { formatMatrixTable } from '../../lib/eval/matrix-table';
import { MATRIX_SETTINGS, runMatrix } from '../../lib/eval/matrix';
import { exportRunTrace } from '../../lib/otel/run-exporter';
import { formatProgress } from '../../lib/eval/progress';
import { parseArgs, stringFlag } from '../args';
import { CliUsageError, type CliCommand } from '../command';
import { configFromArgs, createExecutorFromArgs, datasetFromArgs, HARNESS_FLAGS } from '../common';

// The matrix chooses the weakness flags itself, so --weaknesses is not accepted.
const { weaknesses: _weaknesses, ...SHARED_FLAGS } = HARNESS_FLAGS;

const FLAGS = {
  ...SHARED_FLAGS,
  golden: { type: 'string', description: "golden JSONL file (default: the dataset's first golden file)" },
  json: { type: 'boolean', description: 'print metrics, per-category rows and deltas as JSON keyed by setting' },
} as const;

export const command: CliCommand = {
  name: 'matrix',
  summary: 'evaluate the golden set under no weakness and under each weakness flag alone',
  usage: 'matrix [--dataset DIR] [--golden FILE] [--guards grounded_write] [--payload-wrappers cap_payload] [--transport local] [--json]',
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected argument '${args.positionals[0]}'`);
    const baseConfig = configFromArgs(args);
    const dataset = datasetFromArgs(args);
    const json = args.flags.json === true;
    const showProgress = !json && process.stderr.isTTY === true;
    const matrix = await runMatrix({
      dataset,
      baseConfig,
      goldenPath: stringFlag(args, 'golden'),
      onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }),
      createExecutor: baseConfig.transport === 'local' ? undefined : (config) => createExecutorFromArgs(args, config, dataset),
      onProgress: showProgress
        ? (setting, p) => process.stderr.write(`\r${formatProgress(p.done, p.total, `${setting} ${p.caseId}`.padEnd(32))}`)
        : undefined,
    });
    if (showProgress) process.stderr.write('\n');
    if (json) {
      const bySetting = Object.fromEntries(
        MATRIX_SETTINGS.map((s) => [
          s,
          { metrics: matrix.reports[s].metrics, by_category: matrix.reports[s].by_category, deltas: matrix.deltas[s] },
        ]),
      );
      process.stdout.write(JSON.stringify(bySetting, null, 2) + '\n');
    } else {
      const metrics = Object.fromEntries(MATRIX_SETTINGS.map((s) => [s, matrix.reports[s].metrics]));
      process.stdout.write(`golden ${matrix.golden.path} (sha256 ${matrix.golden.sha256.slice(0, 12)})\n\n`);
      process.stdout.write(formatMatrixTable(metrics) + '\n');
    }
    return 0;
  },
};

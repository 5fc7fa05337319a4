/**
 * `stockroom matrix`: the golden set under `none` and each weakness flag alone, printed as the
 * published table with deltas against `none` (or as JSON keyed by setting). With `--save --tenant T
 * --as EMAIL` the matrix is stored as a suite where the dashboard's matrix page shows it.
 */
import { formatGuardrailTable, formatMatrixTable } from '../../lib/eval/matrix-table';
import { MATRIX_SETTINGS, runMatrix } from '../../lib/eval/matrix';
import { exportRunTrace } from '../../lib/otel/run-exporter';
import { formatProgress } from '../../lib/eval/progress';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { configFromArgs, createExecutorFromArgs, datasetFromArgs, epochsFromArgs, EPOCHS_FLAGS, HARNESS_FLAGS, cancelOnSigint, liveModelFromConfig, runIdsByCase } from '../common';
import { formatPairedDeltas } from '../../lib/eval/matrix-significance';
import { SIGNIFICANCE_LEVEL } from '../../lib/eval/paired-deltas';
import { SAVE_FLAGS, saveTargetFromArgs, type SaveTarget } from '../save';
import { formatJudgeSpend, JUDGE_FLAGS, judgeForTarget, judgeSpecFromArgs, judgeSummary } from '../judge-flags';
import type { Judge } from '../../lib/eval/judge';
import { QUEUE_FLAGS, queueAndFollow, refuseExternalToolsWhenQueued, wantsQueue } from '../queue';
import type { GoldenFile } from '../../lib/eval/golden';
import { GOLDEN_SET_FLAGS, goldenFromArgs } from '../golden-set';
import { createSuiteRun, failSuiteRun } from '../../lib/db/suites/suites';
import { saveMatrixResult } from '../../lib/db/suites/suite-from-eval';
import type { MatrixResult } from '../../lib/eval/matrix';
import { isOfflineModel } from '../../lib/harness/config';
import { formatWeaknessLegend } from '../../lib/stockroom/weaknesses/weakness-table';
import { parseProviderLimits } from '../../lib/jobs/provider-limits';
import { formatLiveEstimate } from '../../lib/runs/live-estimate';
import { estimateMatrix } from '../../lib/runs/matrix-estimate';

// The matrix chooses the weakness flags itself, so --weaknesses is not accepted.
const { weaknesses: _weaknesses, ...SHARED_FLAGS } = HARNESS_FLAGS;

const FLAGS = {
  ...SHARED_FLAGS,
  ...SAVE_FLAGS,
  ...JUDGE_FLAGS,
  ...QUEUE_FLAGS,
  ...GOLDEN_SET_FLAGS,
  ...EPOCHS_FLAGS,
  golden: { type: 'string', description: "golden JSONL file (default: the dataset's first golden file)" },
  json: { type: 'boolean', description: 'print metrics, per-category rows and deltas as JSON keyed by setting' },
  estimate: { type: 'boolean', description: 'a live --model: print the runs, tokens, cost and least time under the provider limits, and run nothing' },
} as const;

/** Stores the matrix as a suite of the target tenant; returns its id and run ids by setting and case. */
async function storeMatrix(target: SaveTarget, matrix: MatrixResult): Promise<{ suiteId: string; runIds: Record<string, Record<string, string | string[]>> }> {
  const { db, owner } = target;
  const first = matrix.rows[0]!.report;
  const suiteId = await createSuiteRun(
    {
      kind: 'matrix',
      tenant: owner.tenant,
      createdBy: owner.createdBy,
      config: first.config as unknown as Record<string, unknown>,
      datasetName: first.dataset.name,
      datasetHash: first.dataset.hash,
      goldenSha256: matrix.golden.sha256,
      total: matrix.rows.reduce((n, r) => n + r.suite.results.length, 0),
    },
    db,
  );
  try {
    const ids = await saveMatrixResult(suiteId, matrix, db, owner);
    const runIds = Object.fromEntries(matrix.rows.map((r) => [r.setting, runIdsByCase(r.report.cases.map((c) => c.id), ids[r.setting]!)]));
    return { suiteId, runIds };
  } catch (err) {
    await failSuiteRun(suiteId, `the CLI could not store every run: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500), db).catch(() => undefined);
    throw err;
  }
}

export const command: CliCommand = {
  name: 'matrix',
  summary: 'evaluate the golden set under no weakness and under each weakness flag alone',
  usage:
    'matrix [--model fake|fake-noisy|PROVIDER:MODEL] [--temperature T --seed N] [--epochs N] [--estimate] [--model-base-url URL] [--dataset DIR] [--golden FILE | --golden-set NAME[@VERSION]] [--guards grounded_write] [--payload-wrappers cap_payload] [--transport local|mcp-memory|mcp-stdio|mcp-http] [--judge fake|PROVIDER:MODEL] [--judge-base-url URL] [--save --tenant T --as EMAIL [--queue [--detach]]] [--guardrails JSON_OR_FILE] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected argument '${args.positionals[0]}'`);
    const queued = wantsQueue(args);
    if (queued) refuseExternalToolsWhenQueued(args);
    // Queued settings are graded by the workers with the deterministic judge: a live one is refused, not dropped.
    if (queued && (stringFlag(args, 'judge') ?? 'fake') !== 'fake') throw new CliUsageError('--judge with a live provider grades in this process; it cannot be combined with --queue');
    const epochs = epochsFromArgs(args);
    const baseConfig = configFromArgs(args);
    // Before credentials are checked: an estimate calls no provider.
    if (args.flags.estimate === true) return await printEstimate(args, baseConfig, epochs);
    const live = await liveModelFromConfig(baseConfig);
    const judgeSpec = await judgeSpecFromArgs(args);
    const dataset = datasetFromArgs(args);
    // Checked before anything runs: a refused --save runs and stores nothing.
    const target = await saveTargetFromArgs(args, dataset.dir);
    const golden = await goldenFromArgs(args, dataset).catch(async (err: unknown) => {
      await target?.close();
      throw err;
    });
    try {
      if (queued) {
        return await queueAndFollow({ kind: 'matrix', dataset, golden, config: baseConfig, settings: MATRIX_SETTINGS, epochs, target: target!, detach: args.flags.detach === true, json: args.flags.json === true });
      }
      return await runAndPrint(args, baseConfig, dataset, golden, target, live, await judgeForTarget(judgeSpec, target), epochs);
    } finally {
      await target?.close();
    }
  },
};

/**
 * `--estimate`: the per-run means of the offline fake model over the same golden cases, prompts and
 * tools (under `none`), scaled to settings × cases × epochs and priced at the live model's price.
 */
async function printEstimate(args: ReturnType<typeof parseArgs>, baseConfig: ReturnType<typeof configFromArgs>, epochs: number): Promise<number> {
  if (isOfflineModel(baseConfig.model)) throw new CliUsageError('--estimate is for a live --model (the fake models cost nothing)');
  if (args.flags.save === true || wantsQueue(args)) throw new CliUsageError('--estimate runs nothing; drop --save/--queue');
  const dataset = datasetFromArgs(args);
  const golden = await goldenFromArgs(args, dataset);
  const limits = parseProviderLimits(process.env.STOCKROOM_PROVIDER_LIMITS);
  const estimate = (await estimateMatrix({ dataset, golden, config: baseConfig, epochs, limitOf: (p) => limits.get(p) ?? null }))!;
  if (args.flags.json === true) process.stdout.write(JSON.stringify({ model: baseConfig.model, epochs, estimate }, null, 2) + '\n');
  else process.stdout.write(`estimate for matrix --model ${baseConfig.model} --epochs ${epochs}\n${formatLiveEstimate(estimate, baseConfig.model)}\n`);
  return 0;
}

async function runAndPrint(
  args: ReturnType<typeof parseArgs>,
  baseConfig: ReturnType<typeof configFromArgs>,
  dataset: ReturnType<typeof datasetFromArgs>,
  golden: GoldenFile,
  target: SaveTarget | null,
  live: Awaited<ReturnType<typeof liveModelFromConfig>>,
  judge: Judge,
  epochs: number,
): Promise<number> {
  const json = args.flags.json === true;
  const showProgress = !json && process.stderr.isTTY === true;
  const cancel = cancelOnSigint();
  const matrix = await runMatrix({
    dataset,
    baseConfig,
    golden,
    ...live,
    judge,
    epochs,
    signal: cancel.signal,
    onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }),
    createExecutor: baseConfig.transport === 'local' ? undefined : (config) => createExecutorFromArgs(args, config, dataset),
    onProgress: showProgress
      ? (setting, p) => process.stderr.write(`\r${formatProgress(p.done, p.total, `${setting} ${p.caseId}`.padEnd(32))}`)
      : undefined,
  }).finally(cancel.dispose);
  if (showProgress) process.stderr.write('\n');
  const stored = target ? await storeMatrix(target, matrix) : null;
  if (json) {
    const bySetting = Object.fromEntries(
      MATRIX_SETTINGS.map((s) => [
        s,
        {
          metrics: matrix.reports[s].metrics,
          by_category: matrix.reports[s].by_category,
          deltas: matrix.deltas[s],
          intervals: matrix.reports[s].intervals,
          ...(s === 'none' ? {} : { paired_deltas: matrix.paired[s] ?? {} }),
        },
      ]),
    );
    // With --save, `suiteId` and `runIds` (by setting, then case) come first, beside the settings.
    const judged = {
      judge: judgeSummary(judge, MATRIX_SETTINGS.map((s) => matrix.reports[s])),
      epochs: matrix.epochs,
      significance: { level: SIGNIFICANCE_LEVEL, correction: 'holm', cells: Object.values(matrix.paired).reduce((n, row) => n + Object.keys(row).length, 0) },
    };
    process.stdout.write(JSON.stringify(stored ? { ...stored, ...judged, ...bySetting } : { ...judged, ...bySetting }, null, 2) + '\n');
  } else {
    const metrics = Object.fromEntries(MATRIX_SETTINGS.map((s) => [s, matrix.reports[s].metrics]));
    process.stdout.write(`golden ${matrix.golden.path} (sha256 ${matrix.golden.sha256.slice(0, 12)})\n\n`);
    process.stdout.write(formatMatrixTable(metrics) + '\n');
    // What each row's flag switches and does, from the weakness table the run itself was configured by.
    process.stdout.write(`\nsettings\n\n${formatWeaknessLegend()}\n`);
    const significance = formatPairedDeltas(matrix.paired, matrix.epochs);
    if (significance) process.stdout.write(`\n${significance}\n`);
    const guardrailTable = formatGuardrailTable(metrics);
    if (guardrailTable) process.stdout.write(`\nguardrails\n\n${guardrailTable}\n`);
    const j = judgeSummary(judge, MATRIX_SETTINGS.map((s) => matrix.reports[s]));
    process.stdout.write(`\njudge ${j.name} (rubric ${j.rubricVersion})${j.unscored > 0 ? `: ${j.unscored} item(s) unscored` : ''}${j.spend ? `; ${formatJudgeSpend(j.spend)}` : ''}\n`);
    if (stored) process.stdout.write(`\nstored as suite ${stored.suiteId} in tenant ${target!.owner.tenant}\n`);
  }
  return 0;
}

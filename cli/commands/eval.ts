/**
 * `stockroom eval`: runs the golden set once under one configuration, writes the report and prints
 * a summary (or the whole report with --json).
 */
import { guardrailFigureLines } from '../../lib/eval/guardrail-figures';
import { writeFileSync } from 'node:fs';
import type { GoldenFile } from '../../lib/eval/golden';
import { GOLDEN_SET_FLAGS, goldenFromArgs } from '../golden-set';
import { formatProgress } from '../../lib/eval/progress';
import { buildReport, type EvalReport } from '../../lib/eval/report';
import { runSuite } from '../../lib/eval/suite';
import { openAgent } from '../../lib/runs/agent';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { checkOutFile } from '../out-file';
import { configFromArgs, createExecutorFromArgs, datasetFromArgs, epochsFromArgs, EPOCHS_FLAGS, HARNESS_FLAGS, cancelOnSigint, liveModelFromConfig, runIdsByCase } from '../common';
import { formatInterval } from '../../lib/eval/interval-format';
import { SAVE_FLAGS, saveTargetFromArgs, type SaveTarget } from '../save';
import { formatJudgeSpend, JUDGE_FLAGS, judgeForTarget, judgeSpecFromArgs, judgeSpendOf } from '../judge-flags';
import type { Judge } from '../../lib/eval/judge';
import { EVAL_REPLAY_FLAGS, suiteReplayCases, suiteReplaySourceFromArgs, type SuiteReplaySource } from '../replay';
import { ReplayModelClient, replayOutcome, type ReplayOutcome } from '../../lib/models/recording';
import { ModelCallError } from '../../lib/harness/errors';
import type { SuiteAgent } from '../../lib/eval/suite';
import { QUEUE_FLAGS, queueAndFollow, refuseExternalToolsWhenQueued, wantsQueue } from '../queue';
import { settingLabel } from '../../lib/runs/settings';
import { createSuiteRun, completeSuiteRun, failSuiteRun } from '../../lib/db/suites/suites';
import { saveEvalSetting } from '../../lib/db/suites/suite-from-eval';
import type { SuiteResult } from '../../lib/eval/suite';
import { EXIT_CODES } from '../exit-codes';

const FLAGS = {
  ...HARNESS_FLAGS,
  ...SAVE_FLAGS,
  ...JUDGE_FLAGS,
  ...EVAL_REPLAY_FLAGS,
  ...QUEUE_FLAGS,
  ...GOLDEN_SET_FLAGS,
  ...EPOCHS_FLAGS,
  golden: { type: 'string', description: "golden JSONL file (default: the dataset's first golden file)" },
  out: { type: 'string', description: 'write the report JSON to this file' },
  json: { type: 'boolean', description: 'print the report as JSON instead of a summary' },
} as const;

/** A short human summary: headline metrics, categories below 1.0, failing cases. */
export function formatEvalSummary(report: EvalReport): string {
  const m = report.metrics;
  const pick = [
    'tool_selection_accuracy',
    'argument_correctness',
    'answer_correctness',
    'faithfulness_mean_score',
    'termination_match_rate',
    'must_not_call_ok_rate',
    'loop_rate',
    'invalid_call_rate',
    'blocked_call_rate',
    'mean_model_calls',
    'mean_input_tokens',
    'mean_output_tokens',
    'total_cost_usd',
  ] as const;
  const weaknesses = report.config.weaknesses.length ? report.config.weaknesses.join(',') : 'none';
  const spend = judgeSpendOf([report]);
  const judge = report.judge
    ? [`judge: ${report.judge.name} (rubric ${report.judge.rubricVersion})${report.judge.unscored > 0 ? `; ${report.judge.unscored} item(s) unscored` : ''}${spend ? `; ${formatJudgeSpend(spend)}` : ''}`]
    : [];
  const lines = [
    `dataset ${report.dataset.name} (${report.dataset.hash.slice(0, 12)}), golden ${report.golden.file} (${report.golden.cases} cases, sha256 ${report.golden.sha256.slice(0, 12)})`,
    `weaknesses: ${weaknesses}; guards: ${report.config.guards.join(',') || 'none'}; transport: ${report.config.transport}`,
    ...judge,
    '',
    ...intervalHeader(report),
    ...pick.map((k) => `  ${k.padEnd(26)} ${m[k] ?? '—'}${intervalText(report, k)}`),
    ...guardrailFigureLines(m).map((l) => `  ${l}`),
  ];
  const weak = Object.entries(report.by_category).filter(
    ([, c]) => c.tool_selection_accuracy < 1 || c.answer_correctness < 1 || c.termination_match_rate < 1,
  );
  if (weak.length > 0) {
    lines.push('', 'categories below 1.0 (tool_selection, answer, termination):');
    for (const [name, c] of weak) {
      lines.push(`  ${name.padEnd(22)} ${c.tool_selection_accuracy}, ${c.answer_correctness}, ${c.termination_match_rate}`);
    }
  }
  const failing = report.cases.filter(
    (c) => c.scores.toolSelection < 1 || c.scores.judgePassed === false || !c.scores.terminationMatch || !c.scores.mustNotCallOk,
  );
  if (failing.length > 0) {
    lines.push('', 'failing cases:');
    for (const c of failing) {
      const marks = [
        c.scores.toolSelection < 1 ? 'tools' : null,
        c.scores.judgePassed === false ? 'answer' : null,
        !c.scores.terminationMatch ? `termination ${c.scores.terminationReason}` : null,
        !c.scores.mustNotCallOk ? `called ${c.scores.mustNotCallViolations.join(',')}` : null,
      ].filter(Boolean);
      lines.push(`  ${c.id} [${c.category}] ${marks.join('; ')}`);
    }
  }
  return lines.join('\n');
}

/** The epochs and the interval methods, when the report has intervals. */
function intervalHeader(report: EvalReport): string[] {
  const iv = report.intervals;
  if (!iv) return [];
  const methods = [...new Set(Object.values(iv.metrics).map((x) => x.method))].join('; ');
  return [`${iv.epochs} epoch(s) × ${iv.cases} cases = ${iv.runs} runs; ${Math.round(iv.level * 100)}% intervals: ${methods}`];
}

/** ` [low, high]` beside a metric with a non-degenerate interval (nothing for a deterministic model). */
function intervalText(report: EvalReport, key: string): string {
  const x = report.intervals?.metrics[key];
  if (!x || report.intervals?.deterministic) return '';
  return ` ${formatInterval(x)}`;
}

/** Stores an eval as a suite of the target tenant (the dashboard's storage functions); returns its id and run ids by case. */
async function storeEval(target: SaveTarget, suite: SuiteResult, report: EvalReport): Promise<{ suiteId: string; runIds: Record<string, string | string[]> }> {
  const { db, owner } = target;
  const suiteId = await createSuiteRun(
    {
      kind: 'eval',
      tenant: owner.tenant,
      createdBy: owner.createdBy,
      config: report.config as unknown as Record<string, unknown>,
      datasetName: report.dataset.name,
      datasetHash: report.dataset.hash,
      goldenSha256: report.golden.sha256,
      total: suite.results.length,
    },
    db,
  );
  try {
    const ids = await saveEvalSetting(suiteId, settingLabel(report.config.weaknesses), suite, report, db, owner);
    await completeSuiteRun(suiteId, { settings: [] }, db);
    // With epochs a case's runs are listed together (its first epoch's id alone would hide the rest).
    return { suiteId, runIds: runIdsByCase(report.cases.map((c) => c.id), ids) };
  } catch (err) {
    await failSuiteRun(suiteId, `the CLI could not store every run: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500), db).catch(() => undefined);
    throw err;
  }
}

export const command: CliCommand = {
  name: 'eval',
  summary: 'evaluate the golden set under one configuration and write a report',
  usage:
    'eval [--model fake|fake-noisy|PROVIDER:MODEL] [--temperature T --seed N] [--epochs N] [--model-base-url URL] [--dataset DIR] [--golden FILE | --golden-set NAME[@VERSION]] [--weaknesses a,b] [--guards grounded_write] [--payload-wrappers cap_payload] [--transport local|mcp-memory|mcp-stdio|mcp-http] [--judge fake|PROVIDER:MODEL] [--judge-base-url URL] [--replay-from SUITE_ID [--replay-setting S]] [--out FILE] [--save --tenant T --as EMAIL [--queue [--detach]]] [--guardrails JSON_OR_FILE] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected argument '${args.positionals[0]}'`);
    const out = stringFlag(args, 'out');
    if (out !== undefined) checkOutFile('out', out);
    const queued = wantsQueue(args);
    if (queued && out !== undefined) throw new CliUsageError('--out writes a report this process computes; with --queue the suite is stored instead (drop --out)');
    if (queued) refuseExternalToolsWhenQueued(args);
    // A queued suite is graded by the workers with the deterministic judge and runs live; a live judge
    // or a replay source is this process's own work, so asking for both is refused, not dropped.
    if (queued && stringFlag(args, 'replay-from') !== undefined) throw new CliUsageError('--replay-from replays in this process; it cannot be combined with --queue');
    if (queued && (stringFlag(args, 'judge') ?? 'fake') !== 'fake') throw new CliUsageError('--judge with a live provider grades in this process; it cannot be combined with --queue');
    const epochs = epochsFromArgs(args);
    if (epochs > 1 && stringFlag(args, 'replay-from') !== undefined) throw new CliUsageError('--replay-from replays each stored run once; it cannot be combined with --epochs');
    const config = configFromArgs(args);
    const live = await liveModelFromConfig(config);
    const judgeSpec = await judgeSpecFromArgs(args);
    const dataset = datasetFromArgs(args);
    const golden = await goldenFromArgs(args, dataset);
    const replay = await suiteReplaySourceFromArgs(args, dataset.dir);
    // Checked before anything runs: a refused --save runs and stores nothing.
    const target = await saveTargetFromArgs(args, dataset.dir);
    try {
      if (queued) {
        return await queueAndFollow({ kind: 'eval', dataset, golden, config, settings: [settingLabel(config.weaknesses)], epochs, target: target!, detach: args.flags.detach === true, json: args.flags.json === true });
      }
      return await evaluate(args, config, dataset, golden, target, live, await judgeForTarget(judgeSpec, target), replay, epochs);
    } finally {
      await target?.close();
    }
  },
};

async function evaluate(
  args: ReturnType<typeof parseArgs>,
  config: ReturnType<typeof configFromArgs>,
  dataset: ReturnType<typeof datasetFromArgs>,
  golden: GoldenFile,
  target: SaveTarget | null,
  live: Awaited<ReturnType<typeof liveModelFromConfig>>,
  judge: Judge,
  replay: SuiteReplaySource | null,
  epochs: number,
): Promise<number> {
  const executor = config.transport === 'local' ? undefined : await createExecutorFromArgs(args, config, dataset);
  const agent = await openAgent({ dataset, config, executor, live });
  const suiteAgent = replay ? replayingAgent(agent, replay, live, config.weaknesses) : agent;
  const json = args.flags.json === true;
  const showProgress = !json && process.stderr.isTTY === true;
  let report: EvalReport;
  let suite: SuiteResult;
  const cancel = cancelOnSigint();
  try {
    suite = await runSuite({
      agent: suiteAgent,
      // A replay runs the suite's own cases, not the whole golden file.
      cases: replay ? suiteReplayCases(golden.cases, replay, golden.path) : golden.cases,
      judge,
      epochs,
      signal: cancel.signal,
      onProgress: showProgress ? (p) => process.stderr.write(`\r${formatProgress(p.done, p.total, p.caseId)}`) : undefined,
    });
    if (showProgress) process.stderr.write('\n');
    report = buildReport({ suite, config, dataset, golden });
  } finally {
    cancel.dispose();
    await agent.close();
  }
  const out = stringFlag(args, 'out');
  if (out) writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  const stored = target ? await storeEval(target, suite, report) : null;
  const replayed = replay ? replayReport(replay, suite) : null;
  const extra = { ...(stored ?? {}), ...(replayed ? { replay: replayed } : {}) };
  if (json) process.stdout.write(JSON.stringify({ ...extra, ...report }, null, 2) + '\n');
  else
    process.stdout.write(
      formatEvalSummary(report) +
        (replayed ? `\n\n${formatReplay(replayed)}` : '') +
        (out ? `\n\nreport written to ${out}` : '') +
        (stored ? `\n\nstored as suite ${stored.suiteId} (${Object.keys(stored.runIds).length} runs) in tenant ${target!.owner.tenant}` : '') +
        '\n',
    );
  // A replay that did not reproduce every case says so in its status (docs/guides/command-line.md: exit codes).
  return replayed && replayed.diverged > 0 ? EXIT_CODES.DIVERGED : 0;
}

/**
 * The suite agent for `--replay-from SUITE`: each case answers from its stored run's recorded
 * responses while the requests match (then DIVERGED, or live with a live --model); a case the suite
 * has no recorded run for diverges at its first call.
 */
function replayingAgent(
  agent: Awaited<ReturnType<typeof openAgent>>,
  replay: SuiteReplaySource,
  live: Awaited<ReturnType<typeof liveModelFromConfig>>,
  weaknesses: readonly string[],
): SuiteAgent {
  return {
    dataset: agent.dataset,
    run: (query, caseId, options) => {
      const source = caseId ? replay.runs.get(caseId) : undefined;
      const liveModel = live.liveModel?.({ caseId: caseId ?? null, weaknesses }) ?? null;
      const model = source
        ? new ReplayModelClient(source.run, { live: liveModel, recordedMaxTokens: source.maxTokens })
        : (liveModel ?? {
            modelId: 'replay',
            converse: async () => {
              throw new ModelCallError('diverged', `suite ${replay.suiteId} has no recorded run for case ${caseId ?? '(none)'}`);
            },
          });
      return agent.run(query, caseId, { ...options, model });
    },
  };
}

interface ReplayReport {
  suiteId: string;
  setting: string;
  reproduced: number;
  diverged: number;
  cases: Array<{ caseId: string; sourceRunId: string | null } & ReplayOutcome>;
}

function replayReport(replay: SuiteReplaySource, suite: SuiteResult): ReplayReport {
  const cases = suite.results.map((r) => ({ caseId: r.golden.id, sourceRunId: replay.runs.get(r.golden.id)?.runId ?? null, ...replayOutcome(r.run) }));
  return {
    suiteId: replay.suiteId,
    setting: replay.setting,
    reproduced: cases.filter((c) => c.status === 'REPRODUCED').length,
    diverged: cases.filter((c) => c.status !== 'REPRODUCED').length,
    cases,
  };
}

function formatReplay(r: ReplayReport): string {
  const lines = [`replay of suite ${r.suiteId} (${r.setting}): ${r.reproduced} reproduced, ${r.diverged} diverged`];
  for (const c of r.cases.filter((x) => x.status !== 'REPRODUCED')) lines.push(`  ${c.caseId} ${c.status} at step ${c.step}: ${c.detail ?? ''}`);
  return lines.join('\n');
}

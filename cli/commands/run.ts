/**
 * `stockroom run "<query>" [--case ID] …`: one harness run, printed for a person or as JSON; with
 * `--save --tenant T --as EMAIL` also stored where the dashboard shows it (its id is printed).
 */
import { CliUsageError, parseArgs, stringFlag, stringsFlag } from '../args';
import type { CliCommand } from '../command';
import { configFromArgs, createExecutorFromArgs, datasetFromArgs, HARNESS_FLAGS, cancelOnSigint, liveModelFromConfig } from '../common';
import { openAgent } from '../../lib/runs/agent';
import { liveRecorders, metaFor, storeRunSoFar } from '../../lib/runs/store';
import { watchForStop } from '../../lib/runs/stop-runs';
import { newId } from '../../lib/db/core/ids';
import { isOfflineModel } from '../../lib/harness';
import { exitCodeFor } from '../exit-codes';
import { formatRun } from '../format-run';
import { SAVE_FLAGS, saveTargetFromArgs } from '../save';
import { REPLAY_FLAGS, replaySourceFromArgs } from '../replay';
import { replayModel } from '../../lib/models/replay-source';
import { MAX_TAG_CHARS, MAX_TAGS_PER_RUN, RunTagsSchema } from '../../lib/eval';

/** The --tag values in their stored form; a bad one is a usage error naming it. */
function tagsFromArgs(args: ReturnType<typeof parseArgs>): string[] {
  const parsed = RunTagsSchema.safeParse(stringsFlag(args, 'tag'));
  if (!parsed.success) throw new CliUsageError(`--tag: ${parsed.error.issues[0]?.message ?? 'not a tag'}`);
  return parsed.data;
}

const FLAGS = {
  ...HARNESS_FLAGS,
  ...SAVE_FLAGS,
  ...REPLAY_FLAGS,
  case: { type: 'string', description: 'golden case id (replays its mock script when the dataset has one)' },
  json: { type: 'boolean', description: 'print the RunResult as JSON' },
  tag: { type: 'string', multiple: true, description: `a tag the stored run carries, for filters and trends (with --save; at most ${MAX_TAGS_PER_RUN}, each up to ${MAX_TAG_CHARS} characters)` },
} as const;

export const command: CliCommand = {
  name: 'run',
  summary: 'run the agent on one query and print its trajectory',
  usage:
    'run "<query>" | --replay-from RUN_ID [--case ID] [--model PROVIDER:MODEL] [--model-base-url URL] [--dataset DIR] [--weaknesses a,b] [--guards grounded_write] [--transport local|mcp-memory|mcp-stdio|mcp-http] [--save --tenant T --as EMAIL [--tag T]…] [--guardrails JSON_OR_FILE] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const replaying = stringFlag(args, 'replay-from') !== undefined;
    if (args.positionals.length > 1 || (!replaying && args.positionals.length !== 1)) throw new CliUsageError('run needs exactly one query (quote it)');
    if (replaying && args.positionals.length > 0) throw new CliUsageError('--replay-from re-runs the stored run’s own query; give no query');
    const config = configFromArgs(args);
    const live = await liveModelFromConfig(config);
    const dataset = datasetFromArgs(args);
    const source = await replaySourceFromArgs(args, dataset.dir);
    const query = source ? source.run.query : (args.positionals[0] as string);
    const caseId = source ? source.run.caseId : (stringFlag(args, 'case') ?? null);
    // Checked before the run: a refused --save or --tag runs and stores nothing.
    const tags = tagsFromArgs(args);
    const target = await saveTargetFromArgs(args, dataset.dir);
    if (tags.length > 0 && !target) throw new CliUsageError('--tag needs --save: tags are stored with the run');
    const cancel = cancelOnSigint();
    // Stored under its id from the start: a live model's run is written step by step, so the dashboard
    // can follow it (and stop it) while it runs; a fake-model run takes milliseconds and is written once.
    const meta = target ? { ...metaFor(dataset, config, null, null, target.owner), id: newId(), tags } : null;
    const stop = target && meta && !isOfflineModel(config.model) ? watchForStop(meta.id, target.db) : null;
    const signal = stop ? AbortSignal.any([cancel.signal, stop.signal]) : cancel.signal;
    try {
      const executor = await createExecutorFromArgs(args, config, dataset);
      const agent = await openAgent({ dataset, config, executor, live });
      let result;
      try {
        // Replaying: recorded answers while the requests match; then live (with --model) or DIVERGED.
        const model = source ? replayModel(source, live.liveModel?.({ caseId, weaknesses: config.weaknesses }) ?? null) : undefined;
        const recorders = stop && meta ? liveRecorders(meta, { db: target!.db, signal }) : {};
        result = await agent.run(query, caseId, { signal, model, ...recorders });
      } finally {
        await agent.close();
      }
      if (meta) await storeRunSoFar(result, meta, target!.db);
      const runId = meta?.id ?? null;
      if (args.flags.json) {
        const { modelInputs: _omitted, ...rest } = result;
        // With --save, `runId` is the stored run's id (its /runs/<runId> page); the harness's own id moves to `harnessRunId`.
        process.stdout.write(JSON.stringify(runId ? { ...rest, runId, harnessRunId: rest.runId } : rest, null, 2) + '\n');
      } else {
        process.stdout.write(formatRun(result) + '\n' + (runId ? `stored as run ${runId} in tenant ${target!.owner.tenant}\n` : ''));
      }
      // 0 only for COMPLETED: the exit status says how the run ended (cli/exit-codes.ts, docs/guides/command-line.md).
      return exitCodeFor(result.terminationReason, signal.aborted);
    } finally {
      stop?.dispose();
      cancel.dispose();
      await target?.close();
    }
  },
};

import 'server-only';
/**
 * The actions' side of the run service (lib/runs): one run is run and stored in the request (on
 * PostgreSQL, a run from the launcher is a job a worker runs: queueRun / runQueuedRun); a golden
 * suite under one setting and the weakness matrix are queued as jobs (lib/jobs) that workers fan
 * out per case. Progress is what is stored.
 */
import { FAKE_MODEL, resolveConfig, type HarnessConfig, type WeaknessFlag } from '../../harness/config';
import { isToolRecord, type RunResult } from '../../harness/types';
import { scoreCase, type CaseScores } from '../../eval/case-scores';
import { callStatus } from '../../eval/run-summary';
import { MATRIX_SETTINGS } from '../../eval/matrix';
import type { GoldenCase } from '../../eval/golden';
import { configuredToolServer } from '../../runs/tool-servers';
import { InputError } from '../errors';
import type { Dataset } from '../../stockroom/dataset/types';
import { resolveLiveModel, withAgent } from '../../runs/agent';
import { metaFor, storeRun, storeRunSoFar } from '../../runs/store';
import { queueSuite } from '../../runs/suites';
import type { ModelChoice, RunMatrixInput, RunOneInput, RunSettings } from '../../schemas/run-settings';
import { modelSettings } from './models';
import { replayModel, type ReplaySource } from '../../models/replay-source';
import { newId } from '../../db/ids';
import { getDb, type Database } from '../../db/client';
import { deleteRun } from '../../db/runs-write';
import { endRunsUnfinished } from '../../db/run-progress';
import { ConfigError } from '../../harness/errors';
import type { JobQueue } from '../../jobs/types';
import { watchForStop } from '../../runs/stop-runs';
import { goldenCaseOf, goldenOf, resolveDataset } from './datasets';

/** `none`, or the sorted flags joined with `+` (the data layer's setting label). */
export function settingLabel(weaknesses: readonly string[]): string {
  return weaknesses.length === 0 ? 'none' : [...weaknesses].sort().join('+');
}

/**
 * The resolved harness configuration of UI settings under `weaknesses`. A live model is refused here,
 * naming the variable, when the server lacks its credentials (models.ts).
 */
export function configOf(
  settings: Pick<RunSettings, 'guards' | 'payloadWrappers' | 'transport'> & { model?: ModelChoice },
  weaknesses: readonly WeaknessFlag[],
): HarnessConfig {
  return resolveConfig({
    weaknesses: [...weaknesses],
    guards: settings.guards,
    payloadWrappers: settings.payloadWrappers,
    transport: settings.transport,
    ...modelSettings(settings.model ?? FAKE_MODEL),
  });
}

/** A configured tool server's connection options; InputError on `toolServer` for an id the deployment does not list. */
function toolServerOptions(id: string) {
  const server = configuredToolServer(id);
  if (!server) throw new InputError('toolServer', `Unknown tool server '${id}'.`);
  return server;
}

/** Governed runs use the Stockroom tools: a tool server asked for there is refused, not ignored. */
export function refuseToolServer(toolServer: string | undefined): void {
  if (toolServer !== undefined) {
    throw new InputError('toolServer', 'A tool server can be chosen for ungoverned runs, suites and matrices only; governed runs use the Stockroom tools.');
  }
}

export { metaFor, type RunOwner } from '../../runs/store';

/** What the UI shows of a run it just made (the rest is a replay away). */
export interface RunOneResult {
  runId: string;
  terminationReason: string;
  finalAnswer: string;
  steps: number;
  toolCalls: Array<{ name: string; status: string }>;
  /** The golden case's scores for this run, when a golden case was run. */
  scores: Pick<CaseScores, 'toolSelection' | 'argumentCorrectness' | 'answerCorrectnessDeterministic' | 'terminationMatch' | 'mustNotCallOk' | 'loopFindings' | 'inputTokens'> | null;
}

/** The short summary the UI shows of a run it just made. */
export function summariseRun(runId: string, run: RunResult, golden: GoldenCase | null, _dataset: Dataset): RunOneResult {
  const scores = golden ? scoreCase(golden, run) : null; // only the deterministic scores are shown here
  return {
    runId,
    terminationReason: run.terminationReason,
    finalAnswer: run.finalAnswer,
    steps: run.steps,
    toolCalls: run.trajectory.filter(isToolRecord).map((r) => ({ name: r.name, status: callStatus(r) })),
    scores: scores && {
      toolSelection: scores.toolSelection,
      argumentCorrectness: scores.argumentCorrectness,
      answerCorrectnessDeterministic: scores.answerCorrectnessDeterministic,
      terminationMatch: scores.terminationMatch,
      mustNotCallOk: scores.mustNotCallOk,
      // Instructor mode's cards show these two as well (they read "—" and "unchanged" while left out).
      loopFindings: scores.loopFindings,
      inputTokens: scores.inputTokens,
    },
  };
}

/** A run that has been started: its stored id, and its summary once it finishes. */
export interface StartedRun {
  runId: string;
  done: Promise<RunOneResult>;
}

/** A run checked against everything that can refuse it (dataset, case, model credentials, tool server), with its stored id. */
interface PreparedRun {
  dataset: Dataset;
  golden: GoldenCase | null;
  query: string;
  server: ReturnType<typeof toolServerOptions> | undefined;
  config: HarnessConfig;
  meta: ReturnType<typeof metaFor> & { id: string };
}

function prepareRun(input: RunOneInput, caller: { id: string; tenant: string }, id: string = newId()): PreparedRun {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  // A configured tool server decides the transport; the stored run names the server it used.
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const config = configOf(server ? { ...input, transport: server.transport } : input, input.weaknesses);
  const base = metaFor(dataset, config, golden?.category ?? null, null, { createdBy: caller.id, tenant });
  const meta = { ...(input.toolServer ? { ...base, config: { ...base.config, toolServer: input.toolServer } } : base), id };
  return { dataset, golden, query: golden ? golden.query : input.query!, server, config, meta };
}

/**
 * Runs a prepared run and stores it. A live-model run is stored as it goes: the record exists
 * (status running) before its first model call and is rewritten after every step, so its replay can
 * follow it; this resolves as soon as that first record is stored (or the run has ended). A
 * fake-model run takes milliseconds and is stored once, when it ends (`replace`: over the record a
 * queued run already has).
 */
async function executeRun(p: PreparedRun, options: { replay?: ReplaySource; replace?: boolean } = {}): Promise<StartedRun> {
  const { dataset, golden, server, config, meta } = p;
  const liveProgress = config.model !== FAKE_MODEL;
  let stored: () => void = () => {};
  const firstStored = new Promise<void>((resolve) => (stored = resolve));
  const runAndStore = async (live: Awaited<ReturnType<typeof resolveLiveModel>>, signal: AbortSignal | undefined) => {
    const run: RunResult = await withAgent({ dataset, config, tools: server, live }, (agent) =>
      agent.run(p.query, golden?.id ?? null, {
        signal,
        // A live model's run is stored from its start and rewritten after each step (replay follows it);
        // once a stop is asked for, the row keeps saying `stopping` until the run's end is stored.
        onStep: liveProgress ? (soFar) => (signal?.aborted ? undefined : storeRunSoFar(soFar, meta).then(stored)) : undefined,
        // Replaying: the recorded answers, then the chosen live model (if any) from the first mismatch.
        model: options.replay
          ? replayModel(options.replay, live.liveModel?.({ caseId: golden?.id ?? null, weaknesses: config.weaknesses }) ?? null)
          : undefined,
      }),
    );
    await (liveProgress || options.replace ? storeRunSoFar(run, meta) : storeRun(run, meta));
    return summariseRun(meta.id, run, golden, dataset);
  };
  const done = (async () => {
    const live = await resolveLiveModel(config);
    // A live run can be stopped from its replay page (stop-runs.ts); it ends as MODEL_ERROR (cancelled).
    const stop = liveProgress ? watchForStop(meta.id) : null;
    try {
      return await runAndStore(live, stop?.signal);
    } finally {
      stop?.dispose();
    }
  })();
  await Promise.race([firstStored, done]);
  return { runId: meta.id, done };
}

/**
 * Starts one golden case or free query on `tenant`'s dataset, in this process, stored in that tenant
 * (see executeRun). Everything that can be refused is refused before this resolves, with nothing stored.
 */
export async function startRun(input: RunOneInput, caller: { id: string; tenant: string }, options: { replay?: ReplaySource } = {}): Promise<StartedRun> {
  return executeRun(prepareRun(input, caller), options);
}

/** What a queued run's record says until a worker takes it. */
function queuedRecord(p: PreparedRun): RunResult {
  return {
    runId: p.meta.id,
    caseId: p.golden?.id ?? null,
    query: p.query,
    finalAnswer: '',
    terminationReason: 'COMPLETED',
    trajectory: [],
    transitions: [],
    usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, perCall: [] },
    costEstimate: { usd: 0, note: 'not run yet', known: true },
    steps: 0,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    mode: p.config.mode,
    modelId: p.config.model,
    weaknesses: [...p.config.weaknesses].sort(),
    systemPrompt: '',
    toolSpecs: [],
    modelInputs: [],
    status: 'queued',
    checkpoint: null,
  };
}

/**
 * On PostgreSQL a run started from the dashboard is a job: checked here (every refusal before
 * anything is stored), stored as `queued` so its replay page can follow it from the start, and
 * enqueued (keyed by run) for whichever worker takes it (runQueuedRun). Nothing is left behind when
 * the enqueue fails.
 */
export async function queueRun(input: RunOneInput, caller: { id: string; tenant: string }, queue: JobQueue): Promise<{ runId: string }> {
  const p = prepareRun(input, caller);
  await storeRunSoFar(queuedRecord(p), p.meta);
  try {
    await queue.enqueue('run', { runId: p.meta.id, input, caller: { id: caller.id, tenant: caller.tenant } }, { key: `run:${p.meta.id}` });
  } catch (err) {
    await deleteRun(p.meta.id).catch(() => undefined);
    throw err;
  }
  return { runId: p.meta.id };
}

/** What a run says when it could not run on the worker that took it. */
export const couldNotStartAnswer = (why: string) => `A worker could not start this run: ${why}`;

/**
 * A worker's side of queueRun. The run is claimed by compare-and-set (queued → running), so a run
 * stopped while queued, deleted, or already finished is skipped; one still `running` was taken by a
 * worker that died, and runs again from the start under the same id. A refusal on this machine (the
 * dataset or a credential missing here) ends the run saying so; anything else is retried by the queue.
 */
export async function runQueuedRun(job: { runId: string; input: RunOneInput; caller: { id: string; tenant: string } }, db: Database = getDb()): Promise<'ran' | 'skipped' | 'refused'> {
  const claimed = await db.prisma.run.updateMany({ where: { id: job.runId, status: 'queued' }, data: { status: 'running' } });
  if (claimed.count === 0) {
    const row = await db.prisma.run.findUnique({ where: { id: job.runId }, select: { status: true } });
    if (row?.status !== 'running') return 'skipped';
  }
  let prepared: PreparedRun;
  try {
    prepared = prepareRun(job.input, job.caller, job.runId);
  } catch (err) {
    if (!(err instanceof InputError || err instanceof ConfigError)) throw err;
    await endRunsUnfinished({ id: job.runId, status: 'running' }, couldNotStartAnswer(err.message), db);
    return 'refused';
  }
  await (await executeRun(prepared, { replace: true })).done;
  return 'ran';
}

/** Runs one golden case or free query to the end (see startRun) and returns its stored id and a short summary. */
export async function runOne(input: RunOneInput, caller: { id: string; tenant: string }): Promise<RunOneResult> {
  return (await startRun(input, caller)).done;
}

/** Queues the golden suite under one setting on the caller's tenant's dataset; returns at once with the suite id to poll. */
export async function startSuite(input: RunSettings, caller: { id: string; tenant: string }): Promise<{ suiteRunId: string; total: number }> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const owner = { createdBy: caller.id, tenant };
  const golden = goldenOf(dataset);
  // A configured tool server decides the transport (an unknown id is refused here, before queueing).
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const config = configOf(server ? { ...input, transport: server.transport } : input, input.weaknesses);
  return queueSuite({ kind: 'eval', dataset, golden, config, settings: [settingLabel(config.weaknesses)], owner, ...(input.toolServer !== undefined ? { toolServer: input.toolServer } : {}) });
}

/** Queues the weakness matrix (every setting of MATRIX_SETTINGS) on the caller's tenant's dataset; returns at once with the suite id. */
export async function startMatrix(input: RunMatrixInput, caller: { id: string; tenant: string }): Promise<{ suiteRunId: string; total: number }> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const owner = { createdBy: caller.id, tenant };
  const golden = goldenOf(dataset);
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const settings = server ? { ...input, transport: server.transport } : input;
  return queueSuite({ kind: 'matrix', dataset, golden, config: configOf(settings, []), settings: MATRIX_SETTINGS, owner, ...(input.toolServer !== undefined ? { toolServer: input.toolServer } : {}) });
}

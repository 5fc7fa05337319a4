import 'server-only';
/**
 * The actions' side of the run service (lib/runs): one run is run and stored in the request; a
 * golden suite under one setting and the weakness matrix are queued as jobs (lib/jobs) that
 * workers fan out per case. Progress is what is stored.
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
  scores: Pick<CaseScores, 'toolSelection' | 'argumentCorrectness' | 'answerCorrectnessDeterministic' | 'terminationMatch' | 'mustNotCallOk'> | null;
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
    },
  };
}

/** A run that has been started: its stored id, and its summary once it finishes. */
export interface StartedRun {
  runId: string;
  done: Promise<RunOneResult>;
}

/**
 * Starts one golden case or free query on `tenant`'s dataset, stored in that tenant. A live-model run
 * is stored as it goes: the record exists (status running) before its first model call and is
 * rewritten after every step, so its replay can follow it; this resolves as soon as that first record
 * is stored (or the run has ended). A fake-model run takes milliseconds and is stored once, when it
 * ends. Everything that can be refused (dataset, case, model credentials, tool server) is refused
 * before this resolves, with nothing stored.
 */
export async function startRun(input: RunOneInput, caller: { id: string; tenant: string }, options: { replay?: ReplaySource } = {}): Promise<StartedRun> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  // A configured tool server decides the transport; the stored run names the server it used.
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const config = configOf(server ? { ...input, transport: server.transport } : input, input.weaknesses);
  const base = metaFor(dataset, config, golden?.category ?? null, null, { createdBy: caller.id, tenant });
  const meta = { ...(input.toolServer ? { ...base, config: { ...base.config, toolServer: input.toolServer } } : base), id: newId() };
  const liveProgress = config.model !== FAKE_MODEL;
  let stored: () => void = () => {};
  const firstStored = new Promise<void>((resolve) => (stored = resolve));
  const runAndStore = async (live: Awaited<ReturnType<typeof resolveLiveModel>>, signal: AbortSignal | undefined) => {
    const run: RunResult = await withAgent({ dataset, config, tools: server, live }, (agent) =>
      agent.run(golden ? golden.query : input.query!, golden?.id ?? null, {
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
    await (liveProgress ? storeRunSoFar(run, meta) : storeRun(run, meta));
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

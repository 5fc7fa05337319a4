import 'server-only';
/**
 * The actions' side of the run service (lib/runs): one run is run and stored in the request; a
 * golden suite under one setting and the weakness matrix are queued as jobs (lib/jobs) that
 * workers fan out per case. Progress is what is stored.
 */
import { resolveConfig, type HarnessConfig, type WeaknessFlag } from '../../harness/config';
import { isToolRecord, type RunResult } from '../../harness/types';
import { scoreCase, type CaseScores } from '../../eval/case-scores';
import { callStatus } from '../../eval/run-summary';
import { MATRIX_SETTINGS } from '../../eval/matrix';
import type { GoldenCase } from '../../eval/golden';
import { configuredToolServer } from '../../runs/tool-servers';
import { InputError } from '../errors';
import type { Dataset } from '../../stockroom/dataset/types';
import { withAgent } from '../../runs/agent';
import { metaFor, storeRun } from '../../runs/store';
import { queueSuite } from '../../runs/suites';
import type { RunMatrixInput, RunOneInput, RunSettings } from '../../schemas/run-settings';
import { goldenCaseOf, goldenOf, resolveDataset } from './datasets';

/** `none`, or the sorted flags joined with `+` (the data layer's setting label). */
export function settingLabel(weaknesses: readonly string[]): string {
  return weaknesses.length === 0 ? 'none' : [...weaknesses].sort().join('+');
}

/** The resolved harness configuration of UI settings under `weaknesses`. */
export function configOf(settings: Pick<RunSettings, 'guards' | 'payloadWrappers' | 'transport'>, weaknesses: readonly WeaknessFlag[]): HarnessConfig {
  return resolveConfig({
    weaknesses: [...weaknesses],
    guards: settings.guards,
    payloadWrappers: settings.payloadWrappers,
    transport: settings.transport,
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

/**
 * Runs one golden case or free query on `tenant`'s dataset and stores it in that tenant; returns the
 * stored run's id and a short summary.
 */
export async function runOne(input: RunOneInput, caller: { id: string; tenant: string }): Promise<RunOneResult> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  // A configured tool server decides the transport; the stored run names the server it used.
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const config = configOf(server ? { ...input, transport: server.transport } : input, input.weaknesses);
  const run: RunResult = await withAgent({ dataset, config, tools: server }, (agent) => agent.run(golden ? golden.query : input.query!, golden?.id ?? null));
  const meta = metaFor(dataset, config, golden?.category ?? null, null, { createdBy: caller.id, tenant });
  const runId = await storeRun(run, input.toolServer ? { ...meta, config: { ...meta.config, toolServer: input.toolServer } } : meta);
  return summariseRun(runId, run, golden, dataset);
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

import 'server-only';
/**
 * Runs the harness in-process for the actions and stores everything: one run, a golden suite
 * under one setting, or the weakness matrix. Suites and matrices are queued as background jobs
 * (jobs.ts) and report progress through their suite row.
 */
import { FAKE_MODEL, resolveConfig, type HarnessConfig, type WeaknessFlag } from '../../harness/config';
import type { ToolExecutor } from '../../harness/executor';
import { isToolRecord, type RunResult } from '../../harness/types';
import { evaluateCase, type CaseScores } from '../../eval/case-scores';
import { callStatus } from '../../eval/run-summary';
import { MATRIX_SETTINGS, settingWeaknesses } from '../../eval/matrix';
import { buildReport } from '../../eval/report';
import { runSuite, type SuiteResult } from '../../eval/suite';
import type { GoldenCase, GoldenFile } from '../../eval/golden';
import { createExecutor } from '../../mcp/create-executor';
import { loadMcpServers, resolveServer } from '../../mcp/server-config';
import { InputError } from '../errors';
import { createStockroomAgent, type StockroomAgent } from '../../stockroom/agent';
import { exportRunTrace } from '../../otel/run-exporter';
import type { Dataset } from '../../stockroom/dataset/types';
import { replaceRun, saveRun, saveRuns } from '../../db/runs-write';
import { newId } from '../../db/ids';
import { completeSuiteRun, createSuiteRun, failSuiteRun, saveSuiteSetting, updateSuiteProgress } from '../../db/suites';
import type { ModelChoice, RunMatrixInput, RunOneInput, RunSettings } from '../../schemas/run-settings';
import { modelSettings } from './models';
import { replayModel, type ReplaySource } from '../../models/replay-source';
import { goldenCaseOf, goldenOf, resolveDataset } from './datasets';
import { enqueueJob, yieldToEventLoop } from './jobs';

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

/** The live model client factory and cost meter a configuration names (none for the fake model: no provider SDK is loaded). */
async function liveModelOf(config: HarnessConfig) {
  if (config.model === FAKE_MODEL) return { liveModel: null, costMeter: null };
  const [{ liveModelFactory }, { costMeterFor }] = await Promise.all([import('../../models/create-model-client'), import('../../models/prices')]);
  return { liveModel: liveModelFactory(config), costMeter: costMeterFor(config) };
}

/** A configured tool server's connection options; InputError on `toolServer` for an id the deployment does not list. */
function toolServerOptions(id: string): { transport: 'mcp-stdio' | 'mcp-http'; mcpCommand?: string[]; mcpCwd?: string; mcpUrl?: string; mcpHeaders?: Record<string, string> } {
  const servers = loadMcpServers();
  if (!servers.some((s) => s.id === id)) throw new InputError('toolServer', `Unknown tool server '${id}'.`);
  const server = resolveServer(servers, id);
  return server.kind === 'stdio'
    ? { transport: 'mcp-stdio', mcpCommand: server.command, mcpCwd: server.cwd }
    : { transport: 'mcp-http', mcpUrl: server.url, mcpHeaders: server.headers };
}

/** Suites, matrices and governed runs use the Stockroom tools: a tool server asked for there is refused, not ignored. */
export function refuseToolServer(toolServer: string | undefined): void {
  if (toolServer !== undefined) {
    throw new InputError('toolServer', 'A tool server can be chosen for a single ungoverned run only; suites, matrices and governed runs use the Stockroom tools.');
  }
}

async function executorFor(config: HarnessConfig, dataset: Dataset, toolServer?: string): Promise<ToolExecutor | undefined> {
  if (toolServer !== undefined) return createExecutor({ dataset, weaknesses: config.weaknesses, ...toolServerOptions(toolServer) });
  if (config.transport === 'local') return undefined; // the agent builds its own in-process executor
  return createExecutor({ transport: config.transport, dataset, weaknesses: config.weaknesses });
}

type LiveModel = Awaited<ReturnType<typeof liveModelOf>>;

async function withAgent<T>(dataset: Dataset, config: HarnessConfig, work: (agent: StockroomAgent, live: LiveModel) => Promise<T>, toolServer?: string): Promise<T> {
  const live = await liveModelOf(config);
  const agent = await createStockroomAgent({
    dataset,
    config,
    ...live,
    executor: await executorFor(config, dataset, toolServer),
    onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }),
  });
  try {
    return await work(agent, live);
  } finally {
    await agent.close();
  }
}

/** Who starts a run, and the tenant it belongs to (its dataset's). */
export interface RunOwner {
  /** The user id the run is attributed to. */
  createdBy: string;
  tenant: string;
}

/** What a run is stored with besides its RunResult. */
export function metaFor(dataset: Dataset, config: HarnessConfig, category: string | null, suiteRunId: string | null, owner: RunOwner, governed = false) {
  return {
    createdBy: owner.createdBy,
    tenant: owner.tenant,
    governed,
    datasetName: dataset.name,
    datasetHash: dataset.hash,
    transport: config.transport,
    category,
    config: config as unknown as Record<string, unknown>,
    suiteRunId,
  };
}

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
export function summariseRun(runId: string, run: RunResult, golden: GoldenCase | null, dataset: Dataset): RunOneResult {
  const scores = golden ? evaluateCase(golden, run, { floatKeys: dataset.floatKeys }) : null;
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
  const done = (async () => {
    const run: RunResult = await withAgent(
      dataset,
      config,
      (agent, live) =>
        agent.run(golden ? golden.query : input.query!, golden?.id ?? null, {
          onStep: liveProgress ? (soFar) => replaceRun(soFar, meta).then(stored) : undefined,
          // Replaying: the recorded answers, then the chosen live model (if any) from the first mismatch.
          model: options.replay
            ? replayModel(options.replay, live.liveModel?.({ caseId: golden?.id ?? null, weaknesses: config.weaknesses }) ?? null)
            : undefined,
        }),
      input.toolServer,
    );
    await (liveProgress ? replaceRun(run, meta) : saveRun(run, meta));
    return summariseRun(meta.id, run, golden, dataset);
  })();
  await Promise.race([firstStored, done]);
  return { runId: meta.id, done };
}

/** Runs one golden case or free query to the end (see startRun) and returns its stored id and a short summary. */
export async function runOne(input: RunOneInput, caller: { id: string; tenant: string }): Promise<RunOneResult> {
  return (await startRun(input, caller)).done;
}

/**
 * One setting of a suite: every golden case through a fresh agent (yielding between cases and
 * bumping the suite's progress), the runs stored, the setting's report stored with each case's run id.
 */
async function runSetting(
  suiteRunId: string,
  dataset: Dataset,
  golden: GoldenFile,
  config: HarnessConfig,
  setting: string,
  owner: RunOwner,
): Promise<void> {
  let progress: Promise<void> = Promise.resolve();
  // A live model's runs are stored as they go (each case from its start, rewritten per step), so the
  // matrix page can show which case is running; fake-model runs are stored in batches at the end.
  const live = config.model !== FAKE_MODEL;
  const liveIds = new Map<string, string>();
  const suite: SuiteResult = await withAgent(dataset, config, (agent) =>
    runSuite({
      agent: {
        dataset: agent.dataset,
        async run(query, caseId) {
          await yieldToEventLoop();
          await progress; // keep at most one progress write in flight
          if (!live || !caseId) return agent.run(query, caseId);
          const category = golden.cases.find((c) => c.id === caseId)?.category ?? null;
          const meta = { ...metaFor(dataset, config, category, suiteRunId, owner), id: newId() };
          liveIds.set(caseId, meta.id);
          const run = await agent.run(query, caseId, { onStep: (soFar) => replaceRun(soFar, meta) });
          await replaceRun(run, meta);
          return run;
        },
      },
      cases: golden.cases,
      onProgress: () => {
        progress = progress.then(() => updateSuiteProgress(suiteRunId, { completed: 1 }));
      },
    }),
  );
  await progress;
  const ids = live
    ? suite.results.map((r) => liveIds.get(r.golden.id) ?? null)
    : await saveRuns(suite.results.map((r) => ({ run: r.run, meta: metaFor(dataset, config, r.golden.category, suiteRunId, owner) })));
  const report = buildReport({ suite, config, dataset, golden });
  await saveSuiteSetting(suiteRunId, {
    setting,
    metrics: report.metrics,
    byCategory: report.by_category,
    reportedAt: report.generatedAt,
    cases: suite.results.map((r, i) => ({ caseId: r.golden.id, category: r.golden.category, scores: r.scores, runId: ids[i] ?? null })),
  });
}

async function runSuiteJob(suiteRunId: string, work: () => Promise<void>): Promise<void> {
  try {
    await updateSuiteProgress(suiteRunId, { status: 'running' });
    await work();
    await completeSuiteRun(suiteRunId, { settings: [] });
  } catch (err) {
    console.error(`[suite ${suiteRunId}] failed`, err);
    const message = err instanceof Error ? err.message : String(err);
    await failSuiteRun(suiteRunId, message.slice(0, 500)).catch((e: unknown) => console.error('could not mark the suite failed', e));
  }
}

/** Records a queued suite run and hands its work to the job queue; returns at once with its id. */
async function queueSuite(
  kind: 'eval' | 'matrix',
  dataset: Dataset,
  golden: GoldenFile,
  config: HarnessConfig,
  total: number,
  owner: RunOwner,
  work: (suiteRunId: string) => Promise<void>,
): Promise<{ suiteRunId: string; total: number }> {
  const suiteRunId = await createSuiteRun({
    kind,
    tenant: owner.tenant,
    createdBy: owner.createdBy,
    config: config as unknown as Record<string, unknown>,
    datasetName: dataset.name,
    datasetHash: dataset.hash,
    goldenSha256: golden.sha256,
    total,
  });
  enqueueJob(`${kind === 'eval' ? 'suite' : 'matrix'} ${suiteRunId}`, () => runSuiteJob(suiteRunId, () => work(suiteRunId)));
  return { suiteRunId, total };
}

/** Queues the golden suite under one setting on the caller's tenant's dataset; returns at once with the suite id to poll. */
export async function startSuite(input: RunSettings, caller: { id: string; tenant: string }): Promise<{ suiteRunId: string; total: number }> {
  refuseToolServer(input.toolServer);
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const owner = { createdBy: caller.id, tenant };
  const golden = goldenOf(dataset);
  const config = configOf(input, input.weaknesses);
  return queueSuite('eval', dataset, golden, config, golden.cases.length, owner, (id) =>
    runSetting(id, dataset, golden, config, settingLabel(config.weaknesses), owner),
  );
}

/** Queues the weakness matrix (every setting of MATRIX_SETTINGS) on the caller's tenant's dataset; returns at once with the suite id. */
export async function startMatrix(input: RunMatrixInput, caller: { id: string; tenant: string }): Promise<{ suiteRunId: string; total: number }> {
  refuseToolServer(input.toolServer);
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const owner = { createdBy: caller.id, tenant };
  const golden = goldenOf(dataset);
  return queueSuite('matrix', dataset, golden, configOf(input, []), golden.cases.length * MATRIX_SETTINGS.length, owner, async (id) => {
    for (const setting of MATRIX_SETTINGS) {
      await runSetting(id, dataset, golden, configOf(input, settingWeaknesses(setting)), setting, owner);
    }
  });
}

import 'server-only';
/**
 * Runs the harness in-process for the actions and stores everything: one run, a golden suite
 * under one setting, or the weakness matrix. Suites and matrices are queued as background jobs
 * (jobs.ts) and report progress through their suite row.
 */
import { resolveConfig, type HarnessConfig, type WeaknessFlag } from '../../harness/config';
import type { ToolExecutor } from '../../harness/executor';
import { isToolRecord, type RunResult } from '../../harness/types';
import { scoreCase, type CaseScores } from '../../eval/case-scores';
import { callStatus } from '../../eval/run-summary';
import { MATRIX_SETTINGS, settingWeaknesses } from '../../eval/matrix';
import { buildReport } from '../../eval/report';
import { runSuite, type SuiteAgent, type SuiteResult } from '../../eval/suite';
import type { GoldenCase, GoldenFile } from '../../eval/golden';
import { createExecutor } from '../../mcp/create-executor';
import { McpToolExecutor } from '../../mcp/mcp-executor';
import { loadMcpServers, resolveServer } from '../../mcp/server-config';
import { InputError } from '../errors';
import { createStockroomAgent } from '../../stockroom/agent';
import { exportRunTrace } from '../../otel/run-exporter';
import type { Dataset } from '../../stockroom/dataset/types';
import { saveRun, saveRuns } from '../../db/runs-write';
import { completeSuiteRun, createSuiteRun, failSuiteRun, saveSuiteSetting, updateSuiteProgress } from '../../db/suites';
import type { RunMatrixInput, RunOneInput, RunSettings } from '../../schemas/run-settings';
import { goldenCaseOf, goldenOf, resolveDataset } from './datasets';
import { enqueueJob, yieldToEventLoop } from './jobs';

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
function toolServerOptions(id: string): { transport: 'mcp-stdio' | 'mcp-http'; mcpCommand?: string[]; mcpCwd?: string; mcpUrl?: string; mcpHeaders?: Record<string, string>; mcpServerId: string } {
  const servers = loadMcpServers();
  if (!servers.some((s) => s.id === id)) throw new InputError('toolServer', `Unknown tool server '${id}'.`);
  const server = resolveServer(servers, id);
  return server.kind === 'stdio'
    ? { transport: 'mcp-stdio', mcpCommand: server.command, mcpCwd: server.cwd, mcpServerId: id }
    : { transport: 'mcp-http', mcpUrl: server.url, mcpHeaders: server.headers, mcpServerId: id };
}

/** Governed runs use the Stockroom tools: a tool server asked for there is refused, not ignored. */
export function refuseToolServer(toolServer: string | undefined): void {
  if (toolServer !== undefined) {
    throw new InputError('toolServer', 'A tool server can be chosen for ungoverned runs, suites and matrices only; governed runs use the Stockroom tools.');
  }
}

/** The weakness flags an MCP executor's server confirmed in its handshake (null: it states none, or not MCP). */
function confirmedWeaknesses(executor: ToolExecutor | undefined): string[] | null {
  return executor instanceof McpToolExecutor ? (executor.serverWeaknesses()?.active ?? null) : null;
}

async function executorFor(config: HarnessConfig, dataset: Dataset, toolServer?: string): Promise<ToolExecutor | undefined> {
  if (toolServer !== undefined) return createExecutor({ dataset, weaknesses: config.weaknesses, ...toolServerOptions(toolServer) });
  if (config.transport === 'local') return undefined; // the agent builds its own in-process executor
  return createExecutor({ transport: config.transport, dataset, weaknesses: config.weaknesses });
}

async function withAgent<T>(
  dataset: Dataset,
  config: HarnessConfig,
  work: (agent: SuiteAgent) => Promise<T>,
  toolServer?: string,
  onExecutor?: (executor: ToolExecutor | undefined) => void,
): Promise<T> {
  const executor = await executorFor(config, dataset, toolServer);
  onExecutor?.(executor);
  const agent = await createStockroomAgent({
    dataset,
    config,
    executor,
    onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }),
  });
  try {
    return await work(agent);
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
  const run: RunResult = await withAgent(dataset, config, (agent) => agent.run(golden ? golden.query : input.query!, golden?.id ?? null), input.toolServer);
  const meta = metaFor(dataset, config, golden?.category ?? null, null, { createdBy: caller.id, tenant });
  const runId = await saveRun(run, input.toolServer ? { ...meta, config: { ...meta.config, toolServer: input.toolServer } } : meta);
  return summariseRun(runId, run, golden, dataset);
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
  toolServer?: string,
): Promise<void> {
  let progress: Promise<void> = Promise.resolve();
  // With a configured tool server the executor confirms this setting's flags with the server before
  // any case runs (refused, naming them, otherwise); the confirmed flags are stored with every run.
  let confirmed: string[] | null = null;
  const suite: SuiteResult = await withAgent(dataset, config, (agent) =>
    runSuite({
      agent: {
        dataset: agent.dataset,
        async run(query, caseId) {
          await yieldToEventLoop();
          await progress; // keep at most one progress write in flight
          return agent.run(query, caseId);
        },
      },
      cases: golden.cases,
      onProgress: () => {
        progress = progress.then(() => updateSuiteProgress(suiteRunId, { completed: 1 }));
      },
    }),
    toolServer,
    (executor) => {
      confirmed = confirmedWeaknesses(executor);
    },
  );
  await progress;
  const server = toolServer !== undefined ? { toolServer, serverWeaknesses: confirmed } : {};
  const ids = await saveRuns(
    suite.results.map((r) => {
      const meta = metaFor(dataset, config, r.golden.category, suiteRunId, owner);
      return { run: r.run, meta: { ...meta, config: { ...meta.config, ...server } } };
    }),
  );
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
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const owner = { createdBy: caller.id, tenant };
  const golden = goldenOf(dataset);
  // A configured tool server decides the transport (an unknown id is refused here, before queueing).
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const config = configOf(server ? { ...input, transport: server.transport } : input, input.weaknesses);
  return queueSuite('eval', dataset, golden, config, golden.cases.length, owner, (id) =>
    runSetting(id, dataset, golden, config, settingLabel(config.weaknesses), owner, input.toolServer),
  );
}

/** Queues the weakness matrix (every setting of MATRIX_SETTINGS) on the caller's tenant's dataset; returns at once with the suite id. */
export async function startMatrix(input: RunMatrixInput, caller: { id: string; tenant: string }): Promise<{ suiteRunId: string; total: number }> {
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const owner = { createdBy: caller.id, tenant };
  const golden = goldenOf(dataset);
  const server = input.toolServer !== undefined ? toolServerOptions(input.toolServer) : undefined;
  const settings = server ? { ...input, transport: server.transport } : input;
  return queueSuite('matrix', dataset, golden, configOf(settings, []), golden.cases.length * MATRIX_SETTINGS.length, owner, async (id) => {
    for (const setting of MATRIX_SETTINGS) {
      await runSetting(id, dataset, golden, configOf(settings, settingWeaknesses(setting)), setting, owner, input.toolServer);
    }
  });
}

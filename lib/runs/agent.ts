/**
 * How every path that runs the harness (the CLI, the dashboard's actions, the job workers) turns a
 * dataset, a configuration and a choice of tools into an agent: the live model resolved from the
 * configuration (credentials checked), the tool executor (in-process, the harness's own MCP
 * transports, or an external MCP server), the OpenTelemetry export of finished runs, and an
 * optional call policy. One place, so the three paths cannot drift apart.
 */
import { isOfflineModel, type HarnessConfig } from '../harness';
import type { ToolExecutor } from '../harness';
import type { CallPolicy } from '../harness';
import type { CostMeter, ModelClient } from '../harness';
import type { AttemptGate } from '../models';
import { createExecutor, type CreateExecutorOptions } from '../mcp';
import { exportRunTrace } from '../otel';
import { createStockroomAgent, type LiveModelContext, type StockroomAgent } from '../stockroom';
import type { Dataset } from '../stockroom';

/** An external tool server to run against instead of the Stockroom tools (none: the configuration's transport). */
export type ToolServer = Pick<CreateExecutorOptions, 'mcpUrl' | 'mcpHeaders' | 'mcpCommand' | 'mcpCwd' | 'mcpEnv' | 'mcpAuth' | 'mcpServerId'> & {
  transport?: 'mcp-stdio' | 'mcp-http';
};

/** A live model factory and its cost meter (both null for the fake model). */
export interface LiveModel {
  liveModel: ((run: LiveModelContext) => ModelClient) | null;
  costMeter: CostMeter | null;
}

/** The gate each attempt of a live model passes before it is sent (the per-provider limits shared by workers), by model name; none when unlimited. */
export type ModelGate = (model: string) => AttemptGate | undefined;

/**
 * The live model the configuration names, its credentials checked (nulls for the fake model).
 * Refuses before anything runs, naming a missing variable. No provider SDK is loaded for the fake model.
 */
export async function resolveLiveModel(config: HarnessConfig, gateFor?: ModelGate): Promise<LiveModel> {
  if (isOfflineModel(config.model)) return { liveModel: null, costMeter: null };
  const { liveModelFactory, costMeterFor } = await liveModelModules();
  const costMeter = costMeterFor(config);
  const liveModel = liveModelFactory(config, { gate: gateFor?.(config.model) });
  return { liveModel, costMeter };
}

let liveModules: Promise<typeof import('../models/live')> | undefined;

/**
 * The modules a live model needs, with the provider SDKs: loaded on first use, never for the fake
 * model, and kept. Each `import()` goes through the module loader's resolution again (under tsx, a
 * round trip to its loader thread), half a millisecond of a worker's CPU for every run it stored.
 */
function liveModelModules(): Promise<typeof import('../models/live')> {
  liveModules ??= import('../models/live').catch((err: unknown) => {
    liveModules = undefined;
    throw err;
  });
  return liveModules;
}

/** Loads what resolveLiveModel loads on first use (a worker does so before it takes jobs). */
export async function preloadLiveModels(): Promise<void> {
  await liveModelModules();
}

/** The executor for a configuration and tool server; undefined when the agent builds its own in-process one. */
export async function resolveExecutor(config: HarnessConfig, dataset: Dataset, tools: ToolServer = {}): Promise<ToolExecutor | undefined> {
  const external = tools.mcpUrl !== undefined || tools.mcpCommand !== undefined;
  const transport = tools.transport ?? config.transport;
  if (!external && transport === 'local') return undefined;
  return createExecutor({ ...tools, transport, dataset, weaknesses: config.weaknesses });
}

export interface OpenAgentOptions {
  dataset: Dataset;
  config: HarnessConfig;
  tools?: ToolServer;
  /** An executor already built (governed runs wrap theirs in the durable ledger); overrides `tools`. */
  executor?: ToolExecutor;
  policy?: CallPolicy;
  /** Already resolved (the CLI resolves it before opening the database); else resolved here. */
  live?: LiveModel;
  modelGate?: ModelGate;
}

/** An agent over the dataset with everything resolved; the caller closes it (or uses `withAgent`). */
export async function openAgent(options: OpenAgentOptions): Promise<StockroomAgent> {
  const { dataset, config } = options;
  const live = options.live ?? (await resolveLiveModel(config, options.modelGate));
  const executor = options.executor ?? (await resolveExecutor(config, dataset, options.tools));
  return createStockroomAgent({
    dataset,
    config,
    executor,
    policy: options.policy,
    ...live,
    onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }),
  });
}

/** Runs `work` with an agent and closes it (its executor, MCP connections) whatever happens. */
export async function withAgent<T>(options: OpenAgentOptions, work: (agent: StockroomAgent) => Promise<T>): Promise<T> {
  const agent = await openAgent(options);
  try {
    return await work(agent);
  } finally {
    await agent.close();
  }
}

import 'server-only';
/**
 * Runs under the governance policy for the dashboard: a run started by the signed-in operator goes
 * through startGovernedRun (capability pin, policy decisions, journaled writes, evidence) and may
 * pause for approval; after a reviewer's decision it is resumed with resumeGovernedRun. The stored
 * run (what /runs and replay show) is written when the run pauses and replaced when it resumes.
 * Runs without a policy never come here, so the curriculum's metrics cannot move.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ToolExecutor } from '../../harness/executor';
import { PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, TRANSPORTS, WEAKNESS_FLAGS } from '../../harness/config';
import type { RunResult } from '../../harness/types';
import { resumeGovernedRun, startGovernedRun, type AgentDriver, type GovernedContext, type GovernedOutcome } from '../../governance/governed-run';
import { driftedTools, schemaDigest, UNLISTED_TOOL_VERSION } from '../../governance/capability-registry';
import { DEFAULT_POLICY_FILE, loadPolicyFile, type LoadedPolicy } from '../../governance/policy-file';
import { OPERATOR_SCOPES } from '../../governance/principal';
import { createExecutor } from '../../mcp/create-executor';
import { createStockroomAgent } from '../../stockroom/agent';
import { exportRunTrace } from '../../otel/run-exporter';
import type { Dataset } from '../../stockroom/dataset/types';
import { StockroomEnvironment } from '../../stockroom/environment';
import { LocalToolExecutor } from '../../stockroom/executor/local-executor';
import { getDb } from '../../db/client';
import { prismaGovernanceStore } from '../../db/governance-store';
import { findGovernedRun, getGovernedRunOrThrow } from '../../db/governance-runs';
import { newId } from '../../db/ids';
import { replaceRun, saveRun } from '../../db/runs-write';
import type { RunOneInput } from '../../schemas/run-settings';
import type { Principal } from '../authorize';
import { goldenCaseOf, resolveDataset } from './datasets';
import { keepEnvironment } from './environments';
import { configOf, metaFor, summariseRun, type RunOneResult } from './runner';
import { DbError } from '../../db/errors';

/** The policy file governed runs use: STOCKROOM_POLICY_FILE, or config/policy.json. */
export function policyFilePath(): string {
  return path.resolve(process.env.STOCKROOM_POLICY_FILE ?? DEFAULT_POLICY_FILE);
}

/** Read per run, so an edited policy is a new version (and approvals bound to the old one go stale). */
export function currentPolicy(): LoadedPolicy {
  return loadPolicyFile(policyFilePath());
}

/** What a governed run needs to be rebuilt in another process (stored with the run). */
const GovernedSpecSchema = z.object({
  datasetId: z.string(),
  caseId: z.string().nullable(),
  query: z.string(),
  category: z.string().nullable(),
  weaknesses: z.array(z.enum(WEAKNESS_FLAGS)),
  guards: z.array(z.enum(RUN_GUARD_NAMES)),
  payloadWrappers: z.array(z.enum(PAYLOAD_WRAPPER_NAMES)),
  transport: z.enum(TRANSPORTS),
});
type GovernedSpec = z.infer<typeof GovernedSpecSchema>;

/** A governed run's summary: the usual one, whether it paused, and the approval it waits for. */
export interface GovernedRunResult extends RunOneResult {
  status: RunResult['status'];
  approvalId: string | null;
}

async function contextFor(runId: string, spec: GovernedSpec, dataset: Dataset): Promise<GovernedContext> {
  const config = configOf(spec, spec.weaknesses);
  let executor: ToolExecutor;
  if (config.transport === 'local') {
    const env = new StockroomEnvironment(dataset, [...config.weaknesses]);
    keepEnvironment(runId, env);
    executor = new LocalToolExecutor(env);
  } else {
    executor = await createExecutor({ transport: config.transport, dataset, weaknesses: config.weaknesses });
  }
  const agentFor = (ex: ToolExecutor, policy: Parameters<AgentDriver['run']>[1]) => createStockroomAgent({ dataset, config, executor: ex, policy, onRunFinished: (run) => exportRunTrace(run, { datasetName: dataset.name }) });
  const driver: AgentDriver = {
    run: async (ex, policy, operationKey, id) => (await agentFor(ex, policy)).run(spec.query, spec.caseId, { runId: id, operationKey }),
    resume: async (ex, policy, operationKey, paused, resolution) => (await agentFor(ex, policy)).resume(paused, resolution, { operationKey }),
  };
  return { store: prismaGovernanceStore(getDb().prisma), policy: currentPolicy(), executor, driver };
}

async function withContext<T>(runId: string, spec: GovernedSpec, dataset: Dataset, work: (ctx: GovernedContext) => Promise<T>): Promise<T> {
  const ctx = await contextFor(runId, spec, dataset);
  try {
    return await work(ctx);
  } finally {
    await ctx.executor.close();
  }
}

function metaOf(spec: GovernedSpec, dataset: Dataset, runId: string, createdBy: string) {
  return { ...metaFor(dataset, configOf(spec, spec.weaknesses), spec.category, null, createdBy), id: runId };
}

/** Starts one case or query under the policy as `principal` (in their operating tenant) and stores it. */
export async function startGovernedOne(input: RunOneInput, principal: Principal): Promise<GovernedRunResult> {
  const dataset = resolveDataset(input.datasetId);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  const spec: GovernedSpec = {
    datasetId: input.datasetId,
    caseId: golden?.id ?? null,
    query: golden ? golden.query : input.query!,
    category: golden?.category ?? null,
    weaknesses: [...input.weaknesses],
    guards: [...input.guards],
    payloadWrappers: [...input.payloadWrappers],
    transport: input.transport,
  };
  const runId = newId();
  const out = await withContext(runId, spec, dataset, (ctx) =>
    startGovernedRun(ctx, {
      principal: { subject: principal.id, tenant: principal.tenant, scopes: [...OPERATOR_SCOPES] },
      runTenant: principal.tenant,
      spec: spec as unknown as Parameters<typeof startGovernedRun>[1]['spec'],
      runId,
    }),
  );
  await saveRun(out.result, metaOf(spec, dataset, runId, principal.id));
  return { ...summariseRun(runId, out.result, golden, dataset), status: out.result.status, approvalId: out.approval?.id ?? null };
}

/**
 * Resumes a paused governed run whose request was decided (or expired) and replaces its stored run
 * with the continued one. Throws ConflictError when another worker resumed it first.
 */
export async function resumeAfterDecision(runId: string): Promise<GovernedOutcome> {
  const stored = await getGovernedRunOrThrow(getDb().prisma, runId);
  const spec = GovernedSpecSchema.safeParse(stored.spec);
  if (!spec.success) throw new DbError('corrupt', `governed run ${runId} has an unreadable spec`);
  const dataset = resolveDataset(spec.data.datasetId);
  const out = await withContext(runId, spec.data, dataset, (ctx) => resumeGovernedRun(ctx, runId));
  await replaceRun(out.result, { ...metaOf(spec.data, dataset, runId, stored.principal.subject), id: runId });
  return out;
}

/** What a bound field would be if the request were bound now (the request page's "now" column). */
export interface CurrentBinding {
  policyVersion: string;
  toolVersion: string;
  schemaDigest: string;
  /** Tools whose schema differs from the run's pin (calls to them are refused as drift). */
  drifted: { name: string; pinned: string; current: string }[];
}

/**
 * The policy version, tool version and schema digest as they are now for a governed run's tool.
 * Specs come from the in-process executor over the run's dataset and weakness flags (the MCP
 * transports serve the same specs); null when the run is not governed or its dataset is gone.
 */
export async function currentBinding(runId: string, tool: string): Promise<CurrentBinding | null> {
  const stored = await findGovernedRun(getDb().prisma, runId);
  const spec = stored ? GovernedSpecSchema.safeParse(stored.spec) : null;
  if (!stored || !spec?.success) return null;
  let specs;
  try {
    const dataset = resolveDataset(spec.data.datasetId);
    specs = await new LocalToolExecutor(new StockroomEnvironment(dataset, [...spec.data.weaknesses])).listSpecs();
  } catch {
    return null;
  }
  const policy = currentPolicy();
  const found = specs.find((s) => s.name === tool);
  return {
    policyVersion: policy.version,
    toolVersion: policy.document.tools[tool]?.version ?? UNLISTED_TOOL_VERSION,
    schemaDigest: found ? schemaDigest(found) : '(tool no longer listed)',
    drifted: driftedTools(stored.pin, specs),
  };
}

import 'server-only';
/**
 * Runs under the governance policy for the dashboard: a run started by the signed-in operator goes
 * through startGovernedRun (capability pin, policy decisions, journaled writes, evidence) and may
 * pause for approval; after a reviewer's decision it is resumed with resumeGovernedRun. The stored
 * run (what /runs and replay show) is written when the run pauses and replaced when it resumes.
 * Runs without a policy never come here, so the curriculum's metrics cannot move.
 */
import { z } from 'zod';
import type { ToolExecutor } from '../../harness/executor';
import { FAKE_MODEL, PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, TRANSPORTS, WEAKNESS_FLAGS } from '../../harness/config';
import type { RunResult } from '../../harness/types';
import { resumeGovernedRun, startGovernedRun, type AgentDriver, type GovernedContext, type GovernedOutcome } from '../../governance/governed-run';
import { driftedTools, schemaDigest, UNLISTED_TOOL_VERSION } from '../../governance/capability-registry';
import { DEFAULT_TENANT, OPERATOR_SCOPES } from '../../governance/principal';
import { createExecutor } from '../../mcp/create-executor';
import { openAgent } from '../../runs/agent';
import type { Dataset } from '../../stockroom/dataset/types';
import { StockroomEnvironment } from '../../stockroom/environment';
import { LocalToolExecutor } from '../../stockroom/executor/local-executor';
import { getDb } from '../../db/client';
import { prismaGovernanceStore } from '../../db/governance-store';
import { appliedWrites, clearGovernedFailure, findGovernedRun, getGovernedRunOrThrow, recordGovernedFailure } from '../../db/governance-runs';
import { ConflictError, GovernanceError } from '../../governance/errors';
import { HarnessError } from '../../harness/errors';
import { ActionError, InputError } from '../errors';
import { newId } from '../../db/ids';
import { replaceRun, saveRun } from '../../db/runs-write';
import type { RunOneInput } from '../../schemas/run-settings';
import type { Principal } from '../authorize';
import { goldenCaseOf, resolveDataset } from './datasets';
import { withDurableLedger } from './environments';
import { configOf, metaFor, refuseToolServer, summariseRun, type RunOneResult } from './runner';
import { DbError } from '../../db/errors';

import { currentPolicy } from './current-policy';
import { DemoFaultExecutor } from './demo-fault';
import { riskOf } from '../../governance/policy-engine';

export { currentPolicy, policyFilePath } from './current-policy';

/** What a governed run needs to be rebuilt in another process (stored with the run). */
const GovernedSpecSchema = z.object({
  datasetId: z.string(),
  /** The tenant the run (its dataset) belongs to; specs from before tenancy were the default tenant's. */
  tenant: z.string().default(DEFAULT_TENANT),
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
  // The tools (local or over MCP), with every restock kept in the durable ledger by operation key.
  const durable = withDurableLedger(await createExecutor({ transport: config.transport, dataset, weaknesses: config.weaknesses }), runId);
  // Beneath the journal: instructor mode's one-shot "next write times out" fault, when armed for the tenant.
  const executor: ToolExecutor = new DemoFaultExecutor(durable, spec.tenant, (t) => riskOf(currentPolicy(), t) !== 'read');
  // The run service builds the agent (model, guards, trace export) as for every other run.
  const agentFor = (ex: ToolExecutor, policy: Parameters<AgentDriver['run']>[1]) => openAgent({ dataset, config, executor: ex, policy });
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
  return { ...metaFor(dataset, configOf(spec, spec.weaknesses), spec.category, null, { createdBy, tenant: spec.tenant }, true), id: runId };
}

/**
 * Starts one case or query under the policy as `principal` and stores it. The run belongs to its
 * dataset's tenant (only that tenant's datasets resolve for the caller), so its approvals go to that
 * tenant's reviewers; the principal acts for the tenant the caller works in, which the policy's
 * cross-tenant rule compares with the run's tenant.
 */
export async function startGovernedOne(input: RunOneInput, principal: Principal): Promise<GovernedRunResult> {
  refuseToolServer(input.toolServer);
  // A governed run is rebuilt from its spec when it resumes, and the spec names no model: refused, never silently fake.
  if (input.model !== FAKE_MODEL) throw new InputError('model', 'Governed runs use the fake model; choose a live model for an ungoverned run, a suite or the matrix.');
  const { dataset, tenant } = resolveDataset(input.datasetId, principal.tenant);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  const spec: GovernedSpec = {
    datasetId: input.datasetId,
    tenant,
    caseId: golden?.id ?? null,
    query: golden ? golden.query : input.query!,
    category: golden?.category ?? null,
    weaknesses: [...input.weaknesses],
    guards: [...input.guards],
    payloadWrappers: [...input.payloadWrappers],
    transport: input.transport,
  };
  const runId = newId();
  const out = await truthfully(runId, 'start', async () => {
    const started = await withContext(runId, spec, dataset, (ctx) =>
      startGovernedRun(ctx, {
        principal: { subject: principal.id, tenant: principal.tenant, scopes: [...OPERATOR_SCOPES] },
        runTenant: tenant,
        spec: spec as unknown as Parameters<typeof startGovernedRun>[1]['spec'],
        runId,
      }),
    );
    await saveRun(started.result, metaOf(spec, dataset, runId, principal.id));
    return started;
  });
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
  return truthfully(runId, 'resume', async () => {
    const { dataset } = resolveDataset(spec.data.datasetId, spec.data.tenant);
    const out = await withContext(runId, spec.data, dataset, (ctx) => resumeGovernedRun(ctx, runId));
    await replaceRun(out.result, { ...metaOf(spec.data, dataset, runId, stored.principal.subject), id: runId });
    await clearGovernedFailure(getDb().prisma, runId);
    return out;
  });
}

/**
 * Stores the run a governed run finished with when storing it failed after the governed run moved
 * on (its writes were already committed): the runs list and replay then show what happened.
 */
export async function repairStoredRun(runId: string): Promise<void> {
  const prisma = getDb().prisma;
  const stored = await getGovernedRunOrThrow(prisma, runId);
  const spec = GovernedSpecSchema.safeParse(stored.spec);
  if (!spec.success) throw new DbError('corrupt', `governed run ${runId} has an unreadable spec`);
  const { dataset } = resolveDataset(spec.data.datasetId, spec.data.tenant);
  await replaceRun(stored.result, { ...metaOf(spec.data, dataset, runId, stored.principal.subject), id: runId });
  await clearGovernedFailure(prisma, runId);
}

/**
 * Runs a governed start or resume and, when it fails, tells the truth about what was written: the
 * failure is kept on the run and its request (the sweeper retries a resume), and when the
 * downstream already applied a write the user is told so (retrying by hand would write twice).
 * Another worker winning the run (ConflictError) is not a failure.
 */
async function truthfully<T>(runId: string, what: 'start' | 'resume', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ConflictError) throw err;
    const prisma = getDb().prisma;
    // Governance and harness errors say what is wrong in words a user can act on; anything else
    // (database, driver) stays in the server log, never on the page.
    const known = err instanceof GovernanceError || err instanceof HarnessError;
    if (!known) console.error(`[governed ${what}] run ${runId} failed`, err);
    const reason = known ? (err as Error).message : 'an unexpected server error (see the server log)';
    await recordGovernedFailure(prisma, runId, `${what} failed: ${reason}`.slice(0, MAX_FAILURE_CHARS)).catch(() => undefined);
    const writes = await appliedWrites(prisma, runId).catch(() => null);
    if (writes === null || writes.length > 0) {
      const list = writes?.map((w) => `${w.tool} ${w.status} (${w.operationKey})`).join(', ') ?? 'unknown: the journal could not be read';
      throw new ActionError(
        'failed_after_write',
        `The run ${what === 'start' ? 'started' : 'resumed'} and then failed after a write reached the downstream system: ${list}. ` +
          `Do not start it again, that would write twice; the effects page shows the write.` +
          (what === 'resume' ? ' The run will be resumed again automatically.' : ''),
        { cause: err },
      );
    }
    throw err;
  }
}

/** Longest failure note kept on a run (the server log has the rest). */
const MAX_FAILURE_CHARS = 500;

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
    const { dataset } = resolveDataset(spec.data.datasetId, spec.data.tenant);
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

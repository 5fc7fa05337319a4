import 'server-only';
/**
 * What a governed run is rebuilt from in any process (its spec, stored with it), and the context it
 * runs in: the Stockroom tools with every restock kept in the durable ledger, instructor mode's
 * demonstration fault beneath the journal, the policy file, and an agent from the run service.
 */
import { z } from 'zod';
import { GuardrailsSchema } from '../harness';
import type { ToolExecutor } from '../harness';
import { PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, TRANSPORTS, WEAKNESS_FLAGS } from '../harness';
import type { AgentDriver, GovernedContext } from '../governance';
import { currentPolicy } from '../governance';
import { riskOf } from '../governance';
import { DEFAULT_TENANT } from '../governance';
import { createExecutor } from '../mcp';
import type { Dataset } from '../stockroom';
import { getDb } from '../db/core';
import { DbError } from '../db/core';
import { prismaGovernanceStore } from '../db/governance';
import { openAgent } from './agent';
import { DemoFaultExecutor, workerKillDrill } from './demo-fault';
import type { ResumeOwner } from '../governance';
import { withDurableLedger } from './ledger';
import { configOf } from './settings';
import { metaFor } from './store';

/** What a governed run needs to be rebuilt in another process (stored with the run). */
export const GovernedSpecSchema = z.object({
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
  /** The guardrails the run runs under, fixed when it starts (its own, or its tenant's default then). */
  guardrails: GuardrailsSchema.optional(),
});
export type GovernedSpec = z.infer<typeof GovernedSpecSchema>;

/** A stored governed run's spec; a DbError when it cannot be read. */
export function specOf(runId: string, stored: unknown): GovernedSpec {
  const spec = GovernedSpecSchema.safeParse(stored);
  if (!spec.success) throw new DbError('corrupt', `governed run ${runId} has an unreadable spec`);
  return spec.data;
}

async function contextFor(runId: string, spec: GovernedSpec, dataset: Dataset, owner: ResumeOwner | undefined, actor: string | undefined): Promise<GovernedContext> {
  const config = configOf(spec, spec.weaknesses);
  // The tools (local or over MCP), with every restock kept in the durable ledger by operation key.
  const durable = withDurableLedger(await createExecutor({ transport: config.transport, dataset, weaknesses: config.weaknesses }), runId, spec.tenant);
  // Beneath the journal: instructor mode's one-shot "next write times out" fault, when armed for the tenant.
  const executor: ToolExecutor = new DemoFaultExecutor(durable, spec.tenant, (t) => riskOf(currentPolicy(), t) !== 'read');
  // The run service builds the agent (model, guards, trace export) as for every other run.
  const agentFor = (ex: ToolExecutor, policy: Parameters<AgentDriver['run']>[1]) => openAgent({ dataset, config, executor: ex, policy });
  const driver: AgentDriver = {
    run: async (ex, policy, operationKey, id) => (await agentFor(ex, policy)).run(spec.query, spec.caseId, { runId: id, operationKey }),
    resume: async (ex, policy, operationKey, paused, resolution) => (await agentFor(ex, policy)).resume(paused, resolution, { operationKey }),
  };
  // On a job worker only: instructor mode's worker-kill drill, when armed for the tenant.
  const afterStep = owner ? await workerKillDrill(spec.tenant) : null;
  // The journal's results are kept out of storage as the tenant's runs are (issue 33), under the actor's key.
  const store = prismaGovernanceStore(getDb().prisma, { tenant: spec.tenant, ...(actor !== undefined ? { subject: actor } : {}) });
  return { store, policy: currentPolicy(), executor, driver, ...(owner ? { owner } : {}), ...(afterStep ? { afterStep } : {}) };
}

/**
 * Runs `work` in the governed run's context and closes its tools whatever happens. `owner`: the job
 * worker and attempt it runs under (a resume is held through the job's lease). `actor`: the user the
 * run acts for (whose pseudonym key its redacted content is under).
 */
export async function withGovernedContext<T>(runId: string, spec: GovernedSpec, dataset: Dataset, work: (ctx: GovernedContext) => Promise<T>, owner?: ResumeOwner, actor?: string): Promise<T> {
  const ctx = await contextFor(runId, spec, dataset, owner, actor);
  try {
    return await work(ctx);
  } finally {
    await ctx.executor.close();
  }
}

/** What a governed run is stored with (governed, in its spec's tenant, attributed to `createdBy`). */
export function governedMeta(spec: GovernedSpec, dataset: Dataset, runId: string, createdBy: string) {
  return { ...metaFor(dataset, configOf(spec, spec.weaknesses), spec.category, null, { createdBy, tenant: spec.tenant }, true), id: runId };
}

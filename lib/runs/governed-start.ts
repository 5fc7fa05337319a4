import 'server-only';
/**
 * A run under the governance policy, started by a signed-in operator: it goes through
 * startGovernedRun (capability pin, policy decisions, journaled writes, evidence) and may pause for
 * approval. The stored run (what /runs and replay show) is written when it pauses or ends. Runs
 * without a policy never come here, so the curriculum's metrics cannot move.
 */
import { FAKE_MODEL } from '../harness';
import type { RunResult } from '../harness';
import { startGovernedRun } from '../governance';
import { OPERATOR_SCOPES } from '../governance';
import { newId } from '../db/core';
import type { RunOneInput } from '../schemas/run-settings';
import { goldenCaseOf, resolveDataset } from './datasets';
import { InputError } from './errors';
import { governedMeta, withGovernedContext, type GovernedSpec } from './governed-context';
import { truthfully } from './governed-failure';
import type { RunCaller } from './prepare';
import { guardrailsFor, refuseToolServer } from './settings';
import { storeRun } from './store';
import { notifyGovernedRun } from './notifications';
import type { DeliveryQueue } from '../notify';
import { summariseRun, type RunOneResult } from './summary';

/** A governed run's summary: the usual one, whether it paused, and the approval it waits for. */
export interface GovernedRunResult extends RunOneResult {
  status: RunResult['status'];
  approvalId: string | null;
}

/**
 * Starts one case or query under the policy as `caller` and stores it. The run belongs to its
 * dataset's tenant (only that tenant's datasets resolve for the caller), so its approvals go to that
 * tenant's reviewers; the principal acts for the tenant the caller works in, which the policy's
 * cross-tenant rule compares with the run's tenant.
 */
export async function startGovernedOne(input: RunOneInput, caller: RunCaller, notify?: DeliveryQueue): Promise<GovernedRunResult> {
  refuseToolServer(input.toolServer);
  // A governed run is rebuilt from its spec when it resumes, and the spec names no model: refused, never silently fake.
  if (input.model !== FAKE_MODEL) throw new InputError('model', 'Governed runs use the fake model; choose a live model for an ungoverned run, a suite or the matrix.');
  const { dataset, tenant } = resolveDataset(input.datasetId, caller.tenant);
  const golden = input.caseId ? goldenCaseOf(dataset, input.caseId) : null;
  const guardrails = guardrailsFor(input.guardrails, tenant);
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
    ...(guardrails ? { guardrails } : {}),
  };
  const runId = newId();
  const out = await truthfully(runId, 'start', async () => {
    const started = await withGovernedContext(runId, spec, dataset, (ctx) =>
      startGovernedRun(ctx, {
        principal: { subject: caller.id, tenant: caller.tenant, scopes: [...OPERATOR_SCOPES] },
        runTenant: tenant,
        spec: spec as unknown as Parameters<typeof startGovernedRun>[1]['spec'],
        runId,
      }),
      undefined,
      caller.id,
    );
    // Its tags go with its first store; stored again as it resumes, a run keeps them (lib/db/runs-write.ts).
    await storeRun(started.result, { ...governedMeta(spec, dataset, runId, caller.id), tags: input.tags });
    return started;
  });
  // A request to decide, or a run that ended other than COMPLETED: recorded for the tenant's webhooks and
  // sent by jobs, after the answer (the run's time to pause does not grow with webhooks; the sweep
  // records whatever a process that stopped meanwhile missed).
  void notifyGovernedRun(runId, notify);
  return { ...summariseRun(runId, out.result, golden), status: out.result.status, approvalId: out.approval?.id ?? null };
}

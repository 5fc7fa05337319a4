import 'server-only';
/**
 * What the approval pages and the run pages say about decided requests and governed writes, read
 * from what is stored now: the governed run, its journal and the live workers, mapped to text by the
 * one pure function (governance/request-outcome.ts). Also the request page's review context: the
 * product through the agent's own read-only tool on the request's tenant's data, the limits the
 * tool's downstream enforces, and the other open restocks of the SKU.
 */
import { getDb } from '../db/core';
import { listApprovals } from '../db/governance';
import { journalEntriesOfRuns } from '../db/governance';
import { governedRunStates, type GovernedRunState } from '../db/governance';
import { openRestocksForSku, type LedgerRestock } from '../db/governance';
import { workerPresence } from '../db/suites';
import { effectiveStatus, type ApprovalRequest } from '../governance';
import { requestOutcome, type RequestOutcome, type RequestOutcomeInput } from '../governance';
import { limitBreaches, schemaLimits, type ArgumentLimit, type LimitBreach } from '../governance';
import type { JsonValue } from '../harness';
import { LocalToolExecutor, productContext, proposedSku, StockroomEnvironment, stockroomDownstream, type Dataset, type ProductContext } from '../stockroom';
import { resolveDataset } from './datasets';
import { GovernedSpecSchema } from './governed-context';

/** The dataset a governed run runs on (its stored spec), or null when it cannot be resolved any more. */
function datasetOf(state: GovernedRunState | undefined): Dataset | null {
  const spec = state ? GovernedSpecSchema.safeParse(state.spec) : null;
  if (!spec?.success) return null;
  try {
    return resolveDataset(spec.data.datasetId, spec.data.tenant).dataset;
  } catch {
    return null;
  }
}

async function workersNow(): Promise<RequestOutcomeInput['workers']> {
  const presence = await workerPresence();
  return presence.backend === 'workers' ? { remote: true, online: presence.online } : { remote: false, online: 0 };
}

/** Where each request is (by request id), as every page says it. */
export async function requestOutcomes(requests: readonly ApprovalRequest[], now: Date = new Date()): Promise<Map<string, RequestOutcome>> {
  const prisma = getDb().prisma;
  const runIds = requests.map((r) => r.runId);
  const [states, entries, workers] = await Promise.all([governedRunStates(prisma, runIds), journalEntriesOfRuns(prisma, runIds), workersNow()]);
  const out = new Map<string, RequestOutcome>();
  for (const r of requests) {
    const state = states.get(r.runId);
    const dataset = datasetOf(state);
    const downstream = (dataset && stockroomDownstream(dataset.restockRules, r.proposal.tool)) ?? { name: 'the downstream' };
    const effect = entries.find((e) => e.runId === r.runId && e.callId === r.callId) ?? null;
    out.set(
      r.id,
      requestOutcome({
        status: effectiveStatus(r, now),
        outcomeDetail: r.outcomeDetail,
        callId: r.callId,
        run: state ? { status: state.status, awaitingCallId: state.awaitingCallId, updatedAt: state.updatedAt, lastError: state.lastError } : null,
        effect: effect ? { status: effect.status, error: effect.error, result: effect.result } : null,
        workers,
        downstream,
      }),
    );
  }
  return out;
}

/** The governed writes of `runIds` that were refused or never happened, by run: a COMPLETED run with one is not a clean success. */
export async function failedWritesOfRuns(runIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const e of await journalEntriesOfRuns(getDb().prisma, runIds)) {
    if (e.status === 'failed' || e.status === 'reconciled_absent') out.set(e.runId, (out.get(e.runId) ?? 0) + 1);
  }
  return out;
}

/** What a reviewer needs beside the proposal to judge it. */
export interface ReviewContext {
  /** The product as the agent's get_stock_level answers it, or why it could not be read; null when the call names no SKU. */
  product: ProductContext | { error: string } | null;
  limits: ArgumentLimit[];
  breaches: LimitBreach[];
  /** Open restocks of the SKU in the tenant's ledger. */
  openRestocks: LedgerRestock[];
  /** Other pending requests of the tenant for the same tool and SKU. */
  otherPending: { id: string; arguments: JsonValue; createdAt: string }[];
}

/** The review context of a request of a governed run (on its dataset, for the request's tenant). */
export async function reviewContext(req: ApprovalRequest, now: Date = new Date()): Promise<ReviewContext> {
  const prisma = getDb().prisma;
  const state = (await governedRunStates(prisma, [req.runId])).get(req.runId);
  const dataset = datasetOf(state);
  const env = dataset ? new StockroomEnvironment(dataset, []) : null;
  const executor = env ? new LocalToolExecutor(env) : null;
  const specs = executor ? await executor.listSpecs() : [];
  const spec = specs.find((s) => s.name === req.proposal.tool);
  const declared = dataset ? stockroomDownstream(dataset.restockRules, req.proposal.tool) : null;
  const limits = [...(spec ? schemaLimits(spec.inputSchema) : []), ...(declared?.limits ?? [])];
  const sku = proposedSku(req.proposal.arguments);
  const [product, openRestocks, pending] = await Promise.all([
    sku && executor ? productContext(executor, sku).catch(() => ({ error: 'the tool could not be reached' })) : Promise.resolve(null),
    sku ? openRestocksForSku(prisma, req.proposal.tenant, sku) : Promise.resolve([]),
    sku ? listApprovals(prisma, 'pending', now, [req.proposal.tenant]) : Promise.resolve([]),
  ]);
  await executor?.close();
  return {
    product,
    limits,
    breaches: limitBreaches(limits, req.proposal.arguments),
    openRestocks,
    otherPending: pending
      .filter((p) => p.id !== req.id && p.proposal.tool === req.proposal.tool && proposedSku(p.proposal.arguments) === sku)
      .map((p) => ({ id: p.id, arguments: p.proposal.arguments, createdAt: p.createdAt })),
  };
}

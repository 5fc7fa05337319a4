import 'server-only';
/**
 * Governed runs: the principal, capability pin and latest RunResult (with its checkpoint while
 * paused). Every change is a compare-and-set on `stateVersion`, so two workers resuming the same
 * run give exactly one winner. Under a tenant's redaction at rest the `spec` and `result` columns hold
 * redacted copies and the real ones are kept sealed only while the run may still dispatch
 * (governed-content.ts); the rows read here for the governance service are the real ones.
 */
import { z } from 'zod';
import { CapabilityPinSchema } from '../../governance';
import { ownerText, type RunChange, type StoredGovernedRun, type StoredRunStatus } from '../../governance';
import { PrincipalSchema } from '../../governance';
import { safeJsonParse, type JsonValue } from '../../harness';
import { RunResultSchema, type RunResult } from '../../harness';
import type { Prisma } from '../core';
import { DbError, NotFoundError } from '../core';
import { evidenceBody } from '../../governance';
import { evidenceKey } from '../../governance';
import { appendEvidenceIn, listEvidence, withEvidenceTx } from './governance-evidence';
import { governedRunContent, realGovernedContent } from './governed-content';

export { GOVERNED_RUN_STATUSES } from '../../governance';
export type GovernedRunStatus = StoredRunStatus;

/** A stored governed run, as the governance service sees it. */
export type GovernedRunRow = StoredGovernedRun;

function parse<T>(text: string, schema: z.ZodType<T>, what: string): T {
  const j = safeJsonParse(text);
  const r = j.ok ? schema.safeParse(j.value) : null;
  if (!r?.success) throw new DbError('corrupt', `governed run ${what} is unreadable`);
  return r.data;
}

type Row = Awaited<ReturnType<Prisma['governedRun']['findUniqueOrThrow']>>;
function toRow(stored: Row): GovernedRunRow {
  const r = { ...stored, ...realGovernedContent(stored) };
  return {
    runId: r.runId,
    status: r.status as GovernedRunStatus,
    stateVersion: r.stateVersion,
    principal: parse(r.principal, PrincipalSchema, 'principal'),
    pin: parse(r.pin, CapabilityPinSchema, 'pin'),
    policyVersion: r.policyVersion,
    spec: parse(r.spec, z.json() as unknown as z.ZodType<JsonValue>, 'spec'),
    result: parse(r.result, RunResultSchema, 'result'),
    updatedAt: r.updatedAt.toISOString(),
    lastError: r.lastError,
    owner: r.owner,
    takenOverAt: r.takenOverAt?.toISOString() ?? null,
  };
}

/** A status after which the run may still dispatch a call (its real content is kept sealed meanwhile). */
const resumable = (status: GovernedRunStatus) => status === 'paused' || status === 'resuming' || status === 'running';

/** A new governed run's row (its content redacted at rest), made outside any transaction. */
export async function governedRunRowData(prisma: Prisma, row: Omit<GovernedRunRow, 'stateVersion' | 'updatedAt'>) {
  const content = await governedRunContent(prisma, row.principal.tenant, row.principal.subject, row.spec, row.result, resumable(row.status));
  return {
    runId: row.runId,
    status: row.status,
    stateVersion: 1,
    actor: row.principal.subject,
    tenant: row.principal.tenant,
    principal: JSON.stringify(row.principal),
    pin: JSON.stringify(row.pin),
    policyVersion: row.policyVersion,
    ...content,
  };
}

export async function createGovernedRun(prisma: Prisma, row: Omit<GovernedRunRow, 'stateVersion' | 'updatedAt'>): Promise<void> {
  await prisma.governedRun.create({ data: await governedRunRowData(prisma, row) });
}

export async function getGovernedRunOrThrow(prisma: Prisma, runId: string): Promise<GovernedRunRow> {
  const r = await prisma.governedRun.findUnique({ where: { runId } });
  if (!r) throw new NotFoundError('governed run', runId);
  return toRow(r);
}

/**
 * Kept on a governed run from the moment it is marked finished until its stored run (the runs list and
 * replay) has been written: written with the transition itself, so a crash or a lost connection between
 * the two leaves a run the sweep finds and repairs (unstoredGovernedRuns), not one that looks finished
 * while its stored run still says paused. Cleared by clearGovernedFailure once the stored run is written.
 */
export const STORE_PENDING = 'the run finished, but storing its record was interrupted';

/**
 * Compare-and-set: applies the change only when the run is still at `expectedVersion`. A claim
 * (`resuming`) records its owner and start; any other status clears them.
 */
export async function updateGovernedRun(prisma: Prisma, runId: string, expectedVersion: number, change: RunChange & { result?: RunResult }): Promise<boolean> {
  const claim = change.status === 'resuming';
  const content = change.result ? await changedContent(prisma, runId, change.result, resumable(change.status)) : resumable(change.status) ? {} : { sealed: null };
  const { count } = await prisma.governedRun.updateMany({
    where: { runId, stateVersion: expectedVersion, status: change.expectedStatus },
    data: {
      status: change.status,
      stateVersion: expectedVersion + 1,
      ...content,
      owner: claim && change.owner ? ownerText(change.owner) : null,
      resumeStartedAt: claim ? new Date() : null,
      ...(change.takenOverAt ? { takenOverAt: change.takenOverAt } : {}),
      ...(change.status === 'finished' ? { lastError: STORE_PENDING } : {}),
    },
  });
  if (count === 1 && change.result) await dropDispatchedArguments(prisma, runId, change.status === 'paused' ? (change.result.checkpoint?.awaiting.toolUseId ?? null) : null);
  return count === 1;
}

/** The stored form of a new result of a stored run (its real spec is read back to be sealed with it). */
async function changedContent(prisma: Prisma, runId: string, result: RunResult, resumable: boolean) {
  const row = await prisma.governedRun.findUnique({ where: { runId }, select: { runId: true, tenant: true, actor: true, spec: true, sealed: true } });
  if (!row) return { result: JSON.stringify(result) };
  const spec = parse(realGovernedContent({ ...row, result: 'null' }).spec, z.json() as unknown as z.ZodType<JsonValue>, 'spec');
  return governedRunContent(prisma, row.tenant, row.actor, spec, result, resumable);
}

/**
 * The run moved on (finished, or paused on another call): the real arguments kept sealed for the
 * dispatch of its earlier requests are dropped; only the request it waits on now keeps them.
 */
async function dropDispatchedArguments(prisma: Prisma, runId: string, awaiting: string | null): Promise<void> {
  await prisma.approvalRequest.updateMany({ where: { runId, sealedArguments: { not: null }, ...(awaiting ? { callId: { not: awaiting } } : {}) }, data: { sealedArguments: null } });
}

/** Runs by status (the dashboard's "waiting for approval" list). */
export async function listGovernedRuns(prisma: Prisma, status?: GovernedRunStatus): Promise<{ runId: string; status: string; actor: string; tenant: string; updatedAt: string }[]> {
  const rows = await prisma.governedRun.findMany({
    where: { status },
    select: { runId: true, status: true, actor: true, tenant: true, updatedAt: true },
    orderBy: [{ updatedAt: 'desc' }],
    take: 200,
  });
  return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
}

/** The governed run, or null when the run was not started under a policy. */
export async function findGovernedRun(prisma: Prisma, runId: string): Promise<GovernedRunRow | null> {
  const r = await prisma.governedRun.findUnique({ where: { runId } });
  return r ? toRow(r) : null;
}

/** Who started a run under a policy (its actor's user id), or null for a run without a policy. */
export async function runOwner(prisma: Prisma, runId: string): Promise<string | null> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { createdBy: true } });
  if (run?.createdBy) return run.createdBy;
  const r = await prisma.governedRun.findUnique({ where: { runId }, select: { actor: true } });
  return r?.actor ?? null;
}

/**
 * A governed run's stored run is being deleted: the governed run is cancelled and its open approval
 * requests with it, in one transaction with the evidence, so no later decision can resume (and so
 * recreate) the run. False when the run is not governed or already finished.
 */
export async function cancelGovernedRun(prisma: Prisma, runId: string, actor: string, now: Date = new Date()): Promise<boolean> {
  const key = evidenceKey();
  return withEvidenceTx(prisma, async (tx) => {
    const { count } = await tx.governedRun.updateMany({ where: { runId, status: { in: ['paused', 'running'] } }, data: { status: 'cancelled', lastError: null, sealed: null } });
    if (count === 0) return false;
    // Nothing of the run will be dispatched now: its sealed content goes (issue 33).
    await tx.approvalRequest.updateMany({ where: { runId, sealedArguments: { not: null } }, data: { sealedArguments: null } });
    const open = await tx.approvalRequest.findMany({ where: { runId, status: { in: ['pending', 'approved', 'denied'] } }, select: { id: true, stateVersion: true } });
    for (const r of open) {
      await tx.approvalRequest.update({ where: { id: r.id }, data: { status: 'cancelled', outcomeDetail: 'the run was deleted', stateVersion: r.stateVersion + 1, decidedAt: now } });
    }
    await appendEvidenceIn(tx, key, evidenceBody({ kind: 'run_finished', at: now.toISOString(), runId, decision: 'cancelled', actor, detail: `run deleted; ${open.length} approval request(s) cancelled` }));
    return true;
  });
}

/** Shows why a governed run's start or resume failed, on the run and on its open request. */
export async function recordGovernedFailure(prisma: Prisma, runId: string, message: string): Promise<void> {
  await prisma.governedRun.updateMany({ where: { runId }, data: { lastError: message } });
  await prisma.approvalRequest.updateMany({ where: { runId, status: { in: ['pending', 'approved', 'denied'] } }, data: { resumeError: message } });
}

/** A resume went through: the failure notes go. */
export async function clearGovernedFailure(prisma: Prisma, runId: string): Promise<void> {
  await prisma.governedRun.updateMany({ where: { runId, lastError: { not: null } }, data: { lastError: null } });
  await prisma.approvalRequest.updateMany({ where: { runId, resumeError: { not: null } }, data: { resumeError: null } });
}

/** The writes of a run the downstream applied (or may have): what a failure report must mention. */
export async function appliedWrites(prisma: Prisma, runId: string): Promise<{ operationKey: string; tool: string; status: string }[]> {
  return prisma.effectJournalEntry.findMany({
    where: { runId, status: { in: ['committed', 'reconciled_committed', 'unknown', 'dispatched'] } },
    select: { operationKey: true, tool: true, status: true },
    orderBy: { createdAt: 'asc' },
  });
}

/**
 * Governed runs a sweep looks at, oldest first: every paused one (its request may have been decided
 * or expired), those left `resuming` without an owner since before `staleBefore` (a server process
 * that died), and every `resuming` one held by a worker owner (the caller asks whether it is gone).
 */
export async function governedRunsDue(prisma: Prisma, staleBefore: Date, take: number): Promise<{ runId: string; status: string; owner: string | null }[]> {
  return prisma.governedRun.findMany({
    where: { OR: [{ status: 'paused' }, { status: 'resuming', updatedAt: { lt: staleBefore } }, { status: 'resuming', owner: { not: null } }] },
    select: { runId: true, status: true, owner: true },
    orderBy: { updatedAt: 'asc' },
    take,
  });
}

/**
 * The run_finished evidence of a finished governed run, appended when it is missing: a resume whose
 * connection was lost after the run was marked finished lost the events it had batched. Its time is
 * the governed run's own recorded finish (updatedAt), never now. Only for a run whose finish is older
 * than `settledMs` (a resume still flushing its batch is left alone: 'not-settled').
 */
export async function ensureRunFinishedEvidence(prisma: Prisma, run: GovernedRunRow, settledMs: number, now: Date = new Date()): Promise<'present' | 'appended' | 'not-settled' | 'not-finished'> {
  if (run.status !== 'finished') return 'not-finished';
  const events = await listEvidence(prisma, { runId: run.runId });
  if (events.some((e) => (e.body as { kind?: unknown }).kind === 'run_finished')) return 'present';
  if (now.getTime() - Date.parse(run.updatedAt) < settledMs) return 'not-settled';
  const key = evidenceKey();
  await withEvidenceTx(prisma, (tx) => appendEvidenceIn(tx, key, evidenceBody({ kind: 'run_finished', at: run.updatedAt, runId: run.runId, decision: run.result.terminationReason })));
  return 'appended';
}

/** Governed runs that finished but whose stored run could not be written (their failure is kept). */
export async function unstoredGovernedRuns(prisma: Prisma, take: number): Promise<string[]> {
  const rows = await prisma.governedRun.findMany({ where: { status: 'finished', lastError: { not: null } }, select: { runId: true }, take });
  return rows.map((r) => r.runId);
}

/** Where each governed run is, for the pages that say where a decided request is (lib/runs/request-view.ts). */
export interface GovernedRunState {
  runId: string;
  status: GovernedRunStatus;
  /** The call the run is paused on, if paused. */
  awaitingCallId: string | null;
  updatedAt: string;
  lastError: string | null;
  spec: JsonValue;
}

/** The states of `runIds`' governed runs, by run id (runs not started under the policy are absent). */
export async function governedRunStates(prisma: Prisma, runIds: readonly string[]): Promise<Map<string, GovernedRunState>> {
  if (runIds.length === 0) return new Map();
  const rows = await prisma.governedRun.findMany({
    where: { runId: { in: [...new Set(runIds)] } },
    select: { runId: true, status: true, result: true, updatedAt: true, lastError: true, spec: true },
  });
  return new Map(
    rows.map((r) => {
      const result = safeJsonParse(r.result);
      const cp = result.ok ? RunResultSchema.shape.checkpoint.safeParse((result.value as { checkpoint?: unknown } | null)?.checkpoint ?? null) : null;
      const spec = safeJsonParse(r.spec);
      return [
        r.runId,
        {
          runId: r.runId,
          status: r.status as GovernedRunStatus,
          awaitingCallId: r.status === 'paused' && cp?.success ? (cp.data?.awaiting.toolUseId ?? null) : null,
          updatedAt: r.updatedAt.toISOString(),
          lastError: r.lastError,
          spec: spec.ok ? spec.value : null,
        },
      ];
    }),
  );
}

import 'server-only';
/**
 * Tenant scoping for every read and write the dashboard serves. Each object belongs to exactly one
 * tenant: a run and a suite by their `tenant` column, an approval request by its bound tenant, a
 * journal entry by its governed run's tenant. An object of another tenant is answered exactly like
 * one that does not exist: the same NotFoundError, which never names a tenant.
 */
import type { ApprovalRequest } from '../../governance';
import type { JournalEntry } from '../../governance';
import { getDb, type Database } from '../core';
import { NotFoundError } from '../core';
import { getApprovalOrThrow } from './governance-approvals';
import { PrismaJournalStore } from './governance-journal';

/** The run's tenant, or null when there is no such run. */
export async function runTenant(id: string, db: Database = getDb()): Promise<string | null> {
  const row = await db.prisma.run.findUnique({ where: { id }, select: { tenant: true } });
  return row?.tenant ?? null;
}

/** Throws NotFoundError('run') unless run `id` exists in `tenant`. */
export async function requireRunInTenant(id: string, tenant: string, db: Database = getDb()): Promise<void> {
  if ((await runTenant(id, db)) !== tenant) throw new NotFoundError('run', id);
}

/** Throws NotFoundError('run') unless every run of `ids` exists in `tenant`. */
export async function requireRunsInTenant(ids: readonly string[], tenant: string, db: Database = getDb()): Promise<void> {
  const distinct = [...new Set(ids)];
  const found = await db.prisma.run.findMany({ where: { id: { in: distinct }, tenant }, select: { id: true } });
  const have = new Set(found.map((r) => r.id));
  const missing = distinct.find((id) => !have.has(id));
  if (missing !== undefined) throw new NotFoundError('run', missing);
}

/** Throws NotFoundError('suite run') unless suite `id` exists in `tenant`. */
export async function requireSuiteInTenant(id: string, tenant: string, db: Database = getDb()): Promise<void> {
  const row = await db.prisma.suiteRun.findUnique({ where: { id }, select: { tenant: true } });
  if (row?.tenant !== tenant) throw new NotFoundError('suite run', id);
}

/** The approval request when it is bound to `tenant`; NotFoundError otherwise (also for another tenant's). */
export async function approvalInTenant(id: string, tenant: string, db: Database = getDb()): Promise<ApprovalRequest> {
  const req = await getApprovalOrThrow(db.prisma, id).catch((err: unknown) => {
    throw err instanceof NotFoundError ? new NotFoundError('approval request', id) : err;
  });
  if (req.proposal.tenant !== tenant) throw new NotFoundError('approval request', id);
  return req;
}

/**
 * The tenant a governed run's effects belong to: its governed-run row's tenant, or (when that row is
 * gone) its stored run's. Null when neither exists.
 */
async function governedRunTenant(runId: string, db: Database): Promise<string | null> {
  const governed = await db.prisma.governedRun.findUnique({ where: { runId }, select: { tenant: true } });
  return governed?.tenant ?? (await runTenant(runId, db));
}

/** The journal entry when its run belongs to `tenant`; NotFoundError otherwise. */
export async function journalEntryInTenant(operationKey: string, tenant: string, db: Database = getDb()): Promise<JournalEntry> {
  const entry = await new PrismaJournalStore(db.prisma).get(operationKey);
  if (!entry || (await governedRunTenant(entry.runId, db)) !== tenant) throw new NotFoundError('journal entry', operationKey);
  return entry;
}

/** Ids of the governed runs of `tenant` (the effects page lists only their journal entries). */
export async function governedRunIdsOfTenant(tenant: string, db: Database = getDb()): Promise<string[]> {
  const [governed, runs] = await Promise.all([
    db.prisma.governedRun.findMany({ where: { tenant }, select: { runId: true } }),
    db.prisma.run.findMany({ where: { tenant, governed: true }, select: { id: true } }),
  ]);
  return [...new Set([...governed.map((g) => g.runId), ...runs.map((r) => r.id)])];
}

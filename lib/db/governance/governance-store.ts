import 'server-only';
/** The governance service's storage over Prisma (one object per database handle). */
import type { ApprovalRequest, GovernanceStore, StartRecords } from '../../governance';
import type { Prisma } from '../core';
import { approvalRowData, createApprovalRequest, findApprovalForCall, newPendingRequest, setApprovalOutcome } from './governance-approvals';
import { PrismaEvidenceSink, txInsert } from './governance-evidence';
import { PrismaJournalStore, type JournalContent } from './governance-journal';
import { getIdentity } from './governance-members';
import { createGovernedRun, getGovernedRunOrThrow, governedRunRowData, updateGovernedRun } from './governance-runs';
import type { McpApprovalStore } from '../../mcp';
import type { Database } from '../core';
import { NotFoundError } from '../core';
import { approvalInTenant } from './tenant-scope';
import { jobHeld } from '../core';

/** `content`: the tenant (and subject) whose runs the store writes, for redaction at rest of journal results. */
export function prismaGovernanceStore(prisma: Prisma, content?: JournalContent): GovernanceStore {
  const evidence = new PrismaEvidenceSink(prisma);
  return {
    journal: new PrismaJournalStore(prisma, undefined, content),
    evidence,
    createRun: (row) => createGovernedRun(prisma, row),
    commitStart: (records) => commitStart(prisma, evidence, records),
    getRun: (runId) => getGovernedRunOrThrow(prisma, runId),
    updateRun: (runId, v, change) => updateGovernedRun(prisma, runId, v, change),
    ownerGone: async (owner) => !(await jobHeld(prisma, owner)),
    createApproval: (req, now) => createApprovalRequest(prisma, req, now),
    findApproval: (runId, callId) => findApprovalForCall(prisma, runId, callId),
    setApprovalOutcome: (id, v, status, detail, now) => setApprovalOutcome(prisma, id, v, status, detail, now),
    identity: (userId) => getIdentity(prisma, userId),
  };
}

/**
 * A start's approval request, governed run and held evidence in one transaction (GovernanceStore). The
 * rows are made first, outside it (their redaction at rest reads the tenant's keys); inside, the two
 * inserts and then the chain's append, which locks the run's chain head (and a new chain's anchor)
 * last, so those locks are held only for the append and the commit, as appendMany holds them.
 */
async function commitStart(prisma: Prisma, evidence: PrismaEvidenceSink, records: StartRecords): Promise<ApprovalRequest | null> {
  const { approval } = records;
  const approvalRow = approval ? await approvalRowData(prisma, approval.request, approval.now) : null;
  const runRow = await governedRunRowData(prisma, records.run);
  // Raw, on the connection the transaction holds (txInsert), with the times Prisma's model API would set.
  const now = new Date();
  await evidence.appendManyWith(async (tx) => {
    if (approvalRow) await txInsert(tx, 'ApprovalRequest', approvalRow);
    await txInsert(tx, 'GovernedRun', { createdAt: now, updatedAt: now, ...runRow });
  }, records.evidence);
  // As createApprovalRequest answers: the real proposal, pending, no decision yet.
  return approval ? newPendingRequest(approval.request, approval.now) : null;
}

/** The approval requests of writes that arrive over MCP, in the same table the dashboard's reviewers decide. */
export function prismaMcpApprovalStore(db: Database): McpApprovalStore {
  const prisma = db.prisma;
  return {
    createApproval: (req, now) => createApprovalRequest(prisma, req, now),
    findApproval: (runId, callId) => findApprovalForCall(prisma, runId, callId),
    setApprovalOutcome: (id, v, status, detail, now) => setApprovalOutcome(prisma, id, v, status, detail, now),
    identity: (userId) => getIdentity(prisma, userId),
    approvalInTenant: (id, tenant) =>
      approvalInTenant(id, tenant, db).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      }),
  };
}

import 'server-only';
/** The governance service's storage over Prisma (one object per database handle). */
import type { GovernanceStore } from '../governance';
import type { Prisma } from './client';
import { createApprovalRequest, findApprovalForCall, setApprovalOutcome } from './governance-approvals';
import { PrismaEvidenceSink } from './governance-evidence';
import { PrismaJournalStore, type JournalContent } from './governance-journal';
import { getIdentity } from './governance-members';
import { createGovernedRun, getGovernedRunOrThrow, updateGovernedRun } from './governance-runs';
import type { McpApprovalStore } from '../mcp';
import type { Database } from './client';
import { NotFoundError } from './errors';
import { approvalInTenant } from './tenant-scope';
import { jobHeld } from './job-lease';

/** `content`: the tenant (and subject) whose runs the store writes, for redaction at rest of journal results. */
export function prismaGovernanceStore(prisma: Prisma, content?: JournalContent): GovernanceStore {
  return {
    journal: new PrismaJournalStore(prisma, undefined, content),
    evidence: new PrismaEvidenceSink(prisma),
    createRun: (row) => createGovernedRun(prisma, row),
    getRun: (runId) => getGovernedRunOrThrow(prisma, runId),
    updateRun: (runId, v, change) => updateGovernedRun(prisma, runId, v, change),
    ownerGone: async (owner) => !(await jobHeld(prisma, owner)),
    createApproval: (req, now) => createApprovalRequest(prisma, req, now),
    findApproval: (runId, callId) => findApprovalForCall(prisma, runId, callId),
    setApprovalOutcome: (id, v, status, detail, now) => setApprovalOutcome(prisma, id, v, status, detail, now),
    identity: (userId) => getIdentity(prisma, userId),
  };
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

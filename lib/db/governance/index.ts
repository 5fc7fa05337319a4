/**
 * Governed runs' records (floor db/governance, on db/core): approvals, the evidence chain, the effects
 * journal, members as governance reads them, redaction of stored content, erasure, tenant scoping of single
 * objects, the durable restock ledger.
 *
 * The area's entry: lib/ code outside lib/db/governance imports it only from here (lib/import-graph.test.ts).
 */
export { approvalsForRuns, decideApproval, findApprovalForCall, getApprovalOrThrow, listApprovals } from './governance-approvals';
export { appendEvidenceIn, labelSubject, sealEvidenceChains, storedBeforeWhere, verifyStoredChain, withEvidenceTx, writeEvidenceWitness, type Tx } from './governance-evidence';
export { journalEntriesOfRuns, PrismaJournalStore } from './governance-journal';
export { addMembership, getIdentity, userLabels } from './governance-members';
export { appliedWrites, clearGovernedFailure, ensureRunFinishedEvidence, findGovernedRun, getGovernedRunOrThrow, governedRunsDue, governedRunStates, recordGovernedFailure, STORE_PENDING, unstoredGovernedRuns, type GovernedRunState } from './governance-runs';
export { prismaGovernanceStore } from './governance-store';
export { jsonOf, rewriteGovernedRecords, rewriteGovernedRun } from './redaction-rewrite-governed';
export { classesInForce, LABEL_COMMENT, labelRedactions, lockedRunRedactions, mergeRedactions, redactorFor, runRedactors, storedRedactions, type SubjectIds } from './redaction-store';
export { openRestocksForSku, PrismaLedgerStore, type LedgerRestock } from './restock-ledger-store';
export { redactRun } from './run-redaction';
export { requireRunInTenant, requireSuiteInTenant } from './tenant-scope';

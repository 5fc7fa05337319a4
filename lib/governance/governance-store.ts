/**
 * What the governance service needs from storage, as one interface so the library never imports the
 * data layer (lib/db/governance/governance-store.ts implements it over Prisma).
 */
import type { JsonValue } from '../harness';
import type { RunResult } from '../harness';
import type { ApprovalRequest, ApprovalStatus } from './approval';
import type { CapabilityPin } from './capability-registry';
import type { JournalStore } from './effect-journal';
import type { EvidenceBody, EvidenceSink } from './evidence';
import type { Principal, ReviewerIdentity } from './principal';

/** A governed run's life: running → paused (waiting for approval) → resuming → finished; deleted while paused → cancelled. */
export const GOVERNED_RUN_STATUSES = ['running', 'paused', 'resuming', 'finished', 'cancelled'] as const;
export type StoredRunStatus = (typeof GOVERNED_RUN_STATUSES)[number];

export interface StoredGovernedRun {
  runId: string;
  status: StoredRunStatus;
  stateVersion: number;
  principal: Principal;
  pin: CapabilityPin;
  policyVersion: string;
  spec: JsonValue;
  result: RunResult;
  /** When the stored run last changed (ISO-8601): a resume that stopped changing has lost its worker. */
  updatedAt: string;
  /** Why its last start or resume failed, null when it did not (shown on the run). */
  lastError?: string | null;
  /** Who holds the resume under way (ResumeOwner as text), null outside a worker or when none is under way. */
  owner?: string | null;
  /** When a resume was taken over after its worker was lost (ISO-8601), null when never. */
  takenOverAt?: string | null;
}

/**
 * Who runs a resume: the job it runs under and the lock the worker holds that job with (the job
 * engine's lease, lib/db/core/job-lease.ts). While that job is still locked by that worker, no other resume
 * may take the run; once it is not (the worker stopped beating and its jobs were released, or the
 * attempt ended: failed, handed back, finished), the next attempt takes it over at once. The next
 * attempt of the same job is the successor of the earlier one.
 */
export interface ResumeOwner {
  jobId: string;
  lockedBy: string;
}

/** The text an owner is stored as: `<lockedBy>/<jobId>`. */
export function ownerText(o: ResumeOwner): string {
  return `${o.lockedBy}/${o.jobId}`;
}

export function parseOwner(text: string): ResumeOwner | null {
  const i = text.lastIndexOf('/');
  return i > 0 ? { lockedBy: text.slice(0, i), jobId: text.slice(i + 1) } : null;
}

/** A claim on a run: its new status, and who holds it from now (null: nobody, or a process without a lease). */
export interface RunChange {
  status: StoredRunStatus;
  result?: RunResult;
  expectedStatus?: StoredRunStatus;
  owner?: ResumeOwner | null;
  /** Set when this claim took the run over from a resume whose worker was lost. */
  takenOverAt?: Date;
}

/** An approval request as the service makes it, before it is stored. */
export type NewApprovalRequest = Omit<ApprovalRequest, 'status' | 'stateVersion' | 'createdAt' | 'decidedAt' | 'outcomeDetail' | 'decisions'>;

/** What a start stores when it has run: its governed run, the request it waits for (paused), the evidence still held. */
export interface StartRecords {
  run: Omit<StoredGovernedRun, 'stateVersion' | 'updatedAt'>;
  approval: { request: NewApprovalRequest; now: Date } | null;
  /** In chain order: the decisions since the last flush, then approval_requested or run_finished. */
  evidence: readonly EvidenceBody[];
}

export interface GovernanceStore {
  journal: JournalStore;
  evidence: EvidenceSink;
  createRun(row: Omit<StoredGovernedRun, 'stateVersion' | 'updatedAt'>): Promise<void>;
  getRun(runId: string): Promise<StoredGovernedRun>;
  /**
   * Compare-and-set on the run's state version (and status, when given). Moving to `resuming` records
   * the owner and when the resume started; any other status clears both.
   */
  updateRun(runId: string, expectedVersion: number, change: RunChange): Promise<boolean>;
  /** Whether the owner of a resume is gone: it no longer holds the job it ran the resume under. */
  ownerGone(owner: ResumeOwner): Promise<boolean>;
  createApproval(req: NewApprovalRequest, now: Date): Promise<ApprovalRequest>;
  /**
   * Stores a start's records in one transaction, in this order: the approval request, the governed
   * run, the evidence (appended to the run's chain in order, its head locked last). All or nothing:
   * no request without its run, no approval_requested event without its request. Optional: without
   * it the service stores each on its own, as a resume does.
   */
  commitStart?(records: StartRecords): Promise<ApprovalRequest | null>;
  findApproval(runId: string, callId: string): Promise<ApprovalRequest | null>;
  setApprovalOutcome(id: string, expectedVersion: number, status: ApprovalStatus, detail: string, now: Date): Promise<boolean>;
  identity(userId: string): Promise<ReviewerIdentity | null>;
}

/**
 * What the governance service needs from storage, as one interface so the library never imports the
 * data layer (lib/db/governance-store.ts implements it over Prisma).
 */
import type { JsonValue } from '../harness/json';
import type { RunResult } from '../harness/types';
import type { ApprovalRequest, ApprovalStatus } from './approval';
import type { CapabilityPin } from './capability-registry';
import type { JournalStore } from './effect-journal';
import type { EvidenceSink } from './evidence';
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
}

export interface GovernanceStore {
  journal: JournalStore;
  evidence: EvidenceSink;
  createRun(row: Omit<StoredGovernedRun, 'stateVersion' | 'updatedAt'>): Promise<void>;
  getRun(runId: string): Promise<StoredGovernedRun>;
  /** Compare-and-set on the run's state version (and status, when given). */
  updateRun(runId: string, expectedVersion: number, change: { status: StoredRunStatus; result?: RunResult; expectedStatus?: StoredRunStatus }): Promise<boolean>;
  createApproval(req: Omit<ApprovalRequest, 'status' | 'stateVersion' | 'createdAt' | 'decidedAt' | 'outcomeDetail' | 'decisions'>, now: Date): Promise<ApprovalRequest>;
  findApproval(runId: string, callId: string): Promise<ApprovalRequest | null>;
  setApprovalOutcome(id: string, expectedVersion: number, status: ApprovalStatus, detail: string, now: Date): Promise<boolean>;
  identity(userId: string): Promise<ReviewerIdentity | null>;
}

/**
 * Where a decided approval request is, in one line a reviewer can trust: the decision, then what
 * happened to the call it decided ("approved — RSR-0001 created", "approved — the ledger rejected it:
 * …", "denied — the run was told") or, while the run has not got there yet, where the run is
 * ("approved — waiting for a worker (none running)", "approved — resuming on a worker since
 * 12:46:43", "approved — taken over after a worker was lost"). Pure: the caller reads the stored
 * request, governed run, journal entry and worker presence and hands them in, so every page (the
 * decision's reply, the request, the queue, the run) says the same thing.
 */
import type { JsonValue } from '../harness';
import type { ApprovalStatus } from './approval';
import type { EffectStatus } from './effect-journal';
import type { StoredRunStatus } from './governance-store';

/** Where the request is: still open, decided and on its way to the run, or done. */
export type RequestPhase = 'pending' | 'waiting_for_worker' | 'resuming' | 'taken_over' | 'writing' | 'finished' | 'cancelled' | 'client';

export interface RequestOutcomeInput {
  /** The request's status as shown (a pending request past its expiry is `expired`). */
  status: ApprovalStatus;
  outcomeDetail: string | null;
  /** The request's call id: whether the run still waits on this call or moved past it. */
  callId: string;
  /** The governed run, or null for a request an MCP client asked for (no run waits on it). */
  run: {
    status: StoredRunStatus;
    /** The call the run is paused on (its checkpoint), if paused. */
    awaitingCallId: string | null;
    /** When the run last changed (ISO-8601): the start of a resume. */
    updatedAt: string;
    /** When a resume whose worker was lost was taken over (ISO-8601), if it was. */
    takenOverAt?: string | null;
    lastError: string | null;
  } | null;
  /** The effect journal's entry for the decided call, once the write was prepared. */
  effect: { status: EffectStatus; error: string | null; result: JsonValue | null } | null;
  /** Where resumes run: `remote` when workers take them (PostgreSQL), with how many are alive. */
  workers: { remote: boolean; online: number };
  /** What the tool writes to, as the reviewer knows it ("the ledger"), and the result field naming what it created. */
  downstream: { name: string; createdIdField?: string };
}

export interface RequestOutcome {
  phase: RequestPhase;
  /** The one line every page shows. */
  text: string;
  tone: 'info' | 'good' | 'bad' | 'warn';
  /** The approved write was refused or did not happen: the run may have completed, its write did not. */
  writeFailed: boolean;
}

/** HH:MM:SS of an ISO-8601 instant, in UTC (the pages' times are UTC). */
function clock(iso: string): string {
  return `${iso.slice(11, 19)} UTC`;
}

/** The message a failed write's result carries (`{"error": code, "message": "…"}`, or text), else its error code. */
function failureMessage(effect: NonNullable<RequestOutcomeInput['effect']>): string {
  const r = effect.result;
  if (typeof r === 'string' && r.trim()) return r;
  if (r !== null && typeof r === 'object' && !Array.isArray(r)) {
    for (const key of ['message', 'detail', 'error']) {
      const v = r[key];
      if (typeof v === 'string' && v.trim()) return v;
    }
  }
  return effect.error ?? 'no reason given';
}

function createdId(result: JsonValue | null, field: string | undefined): string | null {
  if (!field || result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  const v = result[field];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

/** What happened to the approved call, once the journal knows. Null while nothing is known yet. */
function callOutcome(input: RequestOutcomeInput): Omit<RequestOutcome, 'phase'> | null {
  const e = input.effect;
  if (!e) return null;
  switch (e.status) {
    case 'committed':
    case 'reconciled_committed': {
      const id = createdId(e.result, input.downstream.createdIdField);
      return { text: `approved — ${id ? `${id} created` : `${input.downstream.name} applied it`}`, tone: 'good', writeFailed: false };
    }
    case 'failed':
      return { text: `approved — ${input.downstream.name} rejected it: ${failureMessage(e)}`, tone: 'bad', writeFailed: true };
    case 'reconciled_absent':
      return { text: `approved — the write never reached ${input.downstream.name} (reconciled: absent)`, tone: 'bad', writeFailed: true };
    case 'unknown':
      return { text: `approved — the outcome of the write is unknown until it is reconciled (Effects page)`, tone: 'warn', writeFailed: false };
    case 'prepared':
    case 'dispatched':
      return null;
  }
}

const VERDICT: Record<ApprovalStatus, string> = { pending: 'pending', approved: 'approved', denied: 'denied', expired: 'expired', stale: 'stale', cancelled: 'cancelled' };

/** The state of a request, as text, from what is stored about it. */
export function requestOutcome(input: RequestOutcomeInput): RequestOutcome {
  const verdict = VERDICT[input.status];
  if (input.status === 'pending') return { phase: 'pending', text: 'waiting for a decision', tone: 'info', writeFailed: false };
  if (input.status === 'cancelled') return { phase: 'cancelled', text: `cancelled — ${input.outcomeDetail ?? 'the run was deleted'}`, tone: 'warn', writeFailed: false };
  const run = input.run;
  if (!run) {
    const text =
      input.status === 'approved'
        ? 'approved — the MCP client may send the identical call again'
        : input.status === 'denied'
          ? 'denied — the MCP client is told when it asks again'
          : `${verdict} — the MCP client's call will be refused`;
    return { phase: 'client', text, tone: input.status === 'approved' ? 'good' : 'warn', writeFailed: false };
  }
  const done = callOutcome(input);
  if (done) return { phase: 'finished', ...done };

  // The run has not yet acted on this decision: say where it is.
  const waiting = run.status === 'paused' && run.awaitingCallId === input.callId;
  const retry = run.lastError ? ` (the last attempt failed: ${run.lastError}; it is retried automatically)` : '';
  if (waiting) {
    const where = input.workers.remote
      ? input.workers.online === 0
        ? 'waiting for a worker (none running)'
        : 'waiting for a worker'
      : 'waiting to resume';
    return { phase: 'waiting_for_worker', text: `${verdict} — ${where}${retry}`, tone: input.workers.remote && input.workers.online === 0 ? 'warn' : 'info', writeFailed: false };
  }
  if (run.status === 'resuming') {
    if (run.takenOverAt) return { phase: 'taken_over', text: `${verdict} — taken over after a worker was lost (at ${clock(run.takenOverAt)})${retry}`, tone: 'warn', writeFailed: false };
    if (input.effect) return { phase: 'writing', text: `${verdict} — the write is ${input.effect.status} since ${clock(run.updatedAt)}`, tone: 'info', writeFailed: false };
    const where = input.workers.remote ? 'on a worker ' : '';
    return { phase: 'resuming', text: `${verdict} — resuming ${where}since ${clock(run.updatedAt)}${retry}`, tone: 'info', writeFailed: false };
  }
  // The run moved past the call without a write: what the decision meant for it.
  switch (input.status) {
    case 'approved':
      return { phase: 'finished', text: 'approved — the run went on without making the call', tone: 'warn', writeFailed: false };
    case 'denied':
      return { phase: 'finished', text: 'denied — the run was told', tone: 'info', writeFailed: false };
    case 'expired':
      return { phase: 'finished', text: 'expired — nobody decided in time; the run was told', tone: 'warn', writeFailed: false };
    case 'stale':
      return { phase: 'finished', text: `stale — the call was refused${input.outcomeDetail ? ` (${input.outcomeDetail})` : ''}; the run was told`, tone: 'warn', writeFailed: false };
  }
}

import { describe, expect, it } from 'vitest';
import { requestOutcome, type RequestOutcomeInput } from './request-outcome';

const LEDGER = { name: 'the ledger', createdIdField: 'request_id' };

/** A decided request of a governed run, finished with the given effect (override any part). */
function input(over: Partial<RequestOutcomeInput> = {}): RequestOutcomeInput {
  return {
    status: 'approved',
    outcomeDetail: 'approved',
    callId: 'call-1',
    run: { status: 'finished', awaitingCallId: null, updatedAt: '2026-12-06T12:46:43.120Z', lastError: null },
    effect: null,
    workers: { remote: false, online: 0 },
    downstream: LEDGER,
    ...over,
  };
}

describe('requestOutcome', () => {
  it('names the record an approved write created', () => {
    const out = requestOutcome(input({ effect: { status: 'committed', error: null, result: { request_id: 'RSR-0007', status: 'open' } } }));
    expect(out).toEqual({ phase: 'finished', text: 'approved — RSR-0007 created', tone: 'good', writeFailed: false });
  });

  it('says the downstream rejected an approved write, with its message, and marks the write failed', () => {
    const result = { error: 'invalid_request', message: 'rejected: quantities above 4,000 units are rejected automatically' };
    const out = requestOutcome(input({ effect: { status: 'failed', error: 'invalid_request', result } }));
    expect(out).toEqual({ phase: 'finished', text: 'approved — the ledger rejected it: rejected: quantities above 4,000 units are rejected automatically', tone: 'bad', writeFailed: true });
  });

  it('falls back to the error code when a failed write carries no message', () => {
    expect(requestOutcome(input({ effect: { status: 'failed', error: 'invalid_request', result: null } })).text).toBe('approved — the ledger rejected it: invalid_request');
  });

  it('says a write reconciled absent never reached the downstream, and one still unknown waits for reconciliation', () => {
    expect(requestOutcome(input({ effect: { status: 'reconciled_absent', error: null, result: null } }))).toMatchObject({ writeFailed: true, text: 'approved — the write never reached the ledger (reconciled: absent)' });
    expect(requestOutcome(input({ effect: { status: 'unknown', error: null, result: null } }))).toMatchObject({ writeFailed: false, tone: 'warn', text: expect.stringContaining('unknown') });
  });

  it('says an approved run with no worker running waits for one, not for approval', () => {
    const out = requestOutcome(input({ run: { status: 'paused', awaitingCallId: 'call-1', updatedAt: '2026-12-06T12:46:43Z', lastError: null }, workers: { remote: true, online: 0 } }));
    expect(out).toEqual({ phase: 'waiting_for_worker', text: 'approved — waiting for a worker (none running)', tone: 'warn', writeFailed: false });
    const withWorkers = requestOutcome(input({ run: { status: 'paused', awaitingCallId: 'call-1', updatedAt: '2026-12-06T12:46:43Z', lastError: null }, workers: { remote: true, online: 2 } }));
    expect(withWorkers.text).toBe('approved — waiting for a worker');
  });

  it('says since when a resume runs on a worker, and that a resume was taken over after a worker was lost', () => {
    const resuming = { status: 'resuming' as const, awaitingCallId: null, updatedAt: '2026-12-06T12:46:43.120Z', lastError: null };
    expect(requestOutcome(input({ run: resuming, workers: { remote: true, online: 1 } })).text).toBe('approved — resuming on a worker since 12:46:43 UTC');
    expect(requestOutcome(input({ run: { ...resuming, takenOverAt: '2026-12-06T12:47:01.000Z' }, workers: { remote: true, online: 1 } }))).toMatchObject({
      phase: 'taken_over',
      text: 'approved — taken over after a worker was lost (at 12:47:01 UTC)',
    });
  });

  it('keeps the last failure of a resume in the waiting text, with the retry', () => {
    const out = requestOutcome(input({ run: { status: 'paused', awaitingCallId: 'call-1', updatedAt: '2026-12-06T12:46:43Z', lastError: 'resume failed: x' }, workers: { remote: true, online: 1 } }));
    expect(out.text).toBe('approved — waiting for a worker (the last attempt failed: resume failed: x; it is retried automatically)');
  });

  it('says a denial and an expiry were told to the run once it went on, and a stale approval names what changed', () => {
    expect(requestOutcome(input({ status: 'denied' }))).toMatchObject({ phase: 'finished', text: 'denied — the run was told' });
    expect(requestOutcome(input({ status: 'expired' })).text).toBe('expired — nobody decided in time; the run was told');
    expect(requestOutcome(input({ status: 'stale', outcomeDetail: 'at dispatch: arguments changed' })).text).toBe('stale — the call was refused (at dispatch: arguments changed); the run was told');
  });

  it('treats a run paused on a later call as past this one', () => {
    const out = requestOutcome(input({ status: 'denied', run: { status: 'paused', awaitingCallId: 'call-2', updatedAt: '2026-12-06T12:46:43Z', lastError: null } }));
    expect(out.text).toBe('denied — the run was told');
  });

  it('describes pending, cancelled and MCP-client requests without a run', () => {
    expect(requestOutcome(input({ status: 'pending' })).text).toBe('waiting for a decision');
    expect(requestOutcome(input({ status: 'cancelled', outcomeDetail: 'the run was deleted' })).text).toBe('cancelled — the run was deleted');
    expect(requestOutcome(input({ run: null })).text).toBe('approved — the MCP client may send the identical call again');
  });
});

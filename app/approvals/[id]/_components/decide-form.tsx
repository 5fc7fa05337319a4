'use client';
/**
 * Approve or deny with a reason; shows exactly what happened (including being too late or stale),
 * and moves focus to that outcome so a keyboard or screen-reader user lands on it.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import { decideApprovalAction } from '@/lib/actions/decide-approval';

type Outcome = { tone: 'info' | 'good' | 'bad' | 'warn' | 'error'; text: string };

const ALERT: Record<Outcome['tone'], string> = { info: 'info', good: 'info', warn: 'warn', bad: 'error', error: 'error' };

export function DecideForm({ id, open, self }: { id: string; open: boolean; self: boolean }) {
  const router = useRouter();
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, start] = useTransition();
  const outcomeRef = useRef<HTMLParagraphElement>(null);

  // Focus follows the answer: the buttons that had it are gone once the request is decided.
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const decide = (verdict: 'approve' | 'deny') => {
    setOutcome(null);
    start(async () => {
      const res = await decideApprovalAction({ id, verdict, reason });
      if (res.ok) setOutcome({ tone: res.data.status === 'stale' ? 'error' : (res.data.outcome?.tone ?? 'info'), text: res.data.message });
      else setOutcome({ tone: 'error', text: res.fieldErrors ? Object.values(res.fieldErrors).flat().join(' ') : res.error });
      // Nothing changed when the database could not be reached, and re-rendering would only fail too: keep the form to send again.
      if (res.ok || res.code !== 'db_unavailable') router.refresh();
    });
  };

  if (!open && !outcome) return null;
  // The requester cannot decide: the note alone, no reason box or buttons that could only be refused.
  if (self && open && !outcome)
    return (
      <p className="alert info" id="self-note" data-testid="self-note">
        You started this run, so another reviewer must decide (self-approval is refused).
      </p>
    );
  return (
    <form className="stack" aria-label="Decide" onSubmit={(e) => e.preventDefault()}>
      {open ? (
        <>
          <div className="field">
            <label htmlFor="reason">Reason (recorded with your decision)</label>
            <textarea id="reason" rows={2} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
          </div>
          <div className="row">
            <button type="button" className="primary" disabled={pending} onClick={() => decide('approve')}>
              Approve
            </button>
            <button type="button" className="danger" disabled={pending} onClick={() => decide('deny')}>
              Deny
            </button>
            {pending ? <span className="muted small">Deciding and resuming the run…</span> : null}
          </div>
        </>
      ) : null}
      {outcome ? (
        <p ref={outcomeRef} tabIndex={-1} className={`alert ${ALERT[outcome.tone]}`} role="status" data-testid="decide-outcome">
          {outcome.text}
        </p>
      ) : null}
    </form>
  );
}

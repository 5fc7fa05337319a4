'use client';
/** Approve or deny with a reason; shows exactly what happened (including being too late or stale). */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { decideApprovalAction } from '@/lib/actions/decide-approval';

export function DecideForm({ id, open, self }: { id: string; open: boolean; self: boolean }) {
  const router = useRouter();
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();

  const decide = (verdict: 'approve' | 'deny') => {
    setOutcome(null);
    start(async () => {
      const res = await decideApprovalAction({ id, verdict, reason });
      if (res.ok) setOutcome({ ok: res.data.status !== 'stale', text: res.data.message });
      else setOutcome({ ok: false, text: res.fieldErrors ? Object.values(res.fieldErrors).flat().join(' ') : res.error });
      router.refresh();
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
        <p className={`alert ${outcome.ok ? 'info' : 'error'}`} role="status" data-testid="decide-outcome">
          {outcome.text}
        </p>
      ) : null}
    </form>
  );
}

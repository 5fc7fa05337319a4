'use client';
/**
 * Approve or deny with a reason; shows exactly what happened (including being too late or stale),
 * and moves focus to that outcome so a keyboard or screen-reader user lands on it. Keys (see
 * components/review-keys.ts): `a` approve, `d` deny — with the reason box focused until a reason is
 * written, Enter there deciding — and `j`/`k` the next and previous request in the queue.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useEffectEvent, useRef, useState, useTransition } from 'react';
import { decideApprovalAction } from '@/lib/actions/decide-approval';
import { isTyping } from '@/components/is-typing';
import { reasonBoxKey, reviewKeyAction, type Verdict } from '@/components/review-keys';

type Outcome = { tone: 'info' | 'good' | 'bad' | 'warn' | 'error'; text: string };

const ALERT: Record<Outcome['tone'], string> = { info: 'info', good: 'info', warn: 'warn', bad: 'error', error: 'error' };

export function DecideForm({ id, open, self, previous = null, next = null }: { id: string; open: boolean; self: boolean; previous?: string | null; next?: string | null }) {
  const router = useRouter();
  const [reason, setReason] = useState('');
  const [armed, setArmed] = useState<Verdict | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, start] = useTransition();
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const canDecide = open && !self && !outcome;

  // Focus follows the answer: the buttons that had it are gone once the request is decided.
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const decide = (verdict: Verdict) => {
    setOutcome(null);
    setArmed(null);
    setHint(null);
    start(async () => {
      const res = await decideApprovalAction({ id, verdict, reason });
      if (res.ok) setOutcome({ tone: res.data.status === 'stale' ? 'error' : (res.data.outcome?.tone ?? 'info'), text: res.data.message });
      else setOutcome({ tone: 'error', text: res.fieldErrors ? Object.values(res.fieldErrors).flat().join(' ') : res.error });
      // Nothing changed when the database could not be reached, and re-rendering would only fail too: keep the form to send again.
      if (res.ok || res.code !== 'db_unavailable') router.refresh();
    });
  };

  // The latest state without re-subscribing: the window listener is added once.
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    const action = reviewKeyAction({ key: e.key, altKey: e.altKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, typing: isTyping(e.target) }, reason);
    if (!action) return;
    if (action.kind === 'move') {
      const to = action.by === 1 ? next : previous;
      if (to) router.push(`/approvals/${to}`);
      e.preventDefault();
      return;
    }
    if (!canDecide || pending) return;
    e.preventDefault();
    if (action.kind === 'decide') return decide(action.verdict);
    setArmed(action.verdict);
    setHint(null);
    reasonRef.current?.focus();
  });
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onReasonKey = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    const action = reasonBoxKey(e, armed, reason);
    if (!action) return;
    e.preventDefault();
    if (action.kind === 'decide') decide(action.verdict);
    else if (action.kind === 'disarm') {
      setArmed(null);
      setHint(null);
    } else setHint('Give a reason of at least 3 characters, then Enter.');
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
            <textarea
              id="reason"
              ref={reasonRef}
              rows={2}
              maxLength={1000}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              onKeyDown={onReasonKey}
              aria-describedby="decide-keys"
            />
          </div>
          <p className="small muted" id="decide-keys" data-testid="decide-keys" aria-live="polite">
            {armed ? (
              <strong data-testid="armed-verdict">
                {armed === 'approve' ? 'Approving' : 'Denying'}: write the reason, then Enter to {armed}; Escape to cancel.
              </strong>
            ) : (
              <>Keys: a approve · d deny · j / k next / previous request.</>
            )}{' '}
            {hint}
          </p>
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

'use client';
/**
 * The queue's decision keys (j / k move between rows: components/row-keys.tsx): on the focused row,
 * `a` or `d` opens a reason box for that request with the verdict armed and the focus in it; Enter
 * decides (a reason of at least 3 characters), Escape closes it. Rows a caller may not decide (not
 * their role, their own run, not pending) open nothing.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useEffectEvent, useRef, useState, useTransition } from 'react';
import { decideApprovalAction } from '@/lib/actions/decide-approval';
import { isTyping } from '@/components/is-typing';
import { reasonBoxKey, reviewKeyAction, type Verdict } from '@/components/review-keys';

type Open = { id: string; label: string; verdict: Verdict; row: HTMLTableRowElement };

export function QueueKeys({ table }: { table: string }) {
  const router = useRouter();
  const [open, setOpen] = useState<Open | null>(null);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const boxRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (open) boxRef.current?.focus();
  }, [open]);

  const onKey = useEffectEvent((e: KeyboardEvent) => {
    const action = reviewKeyAction({ key: e.key, altKey: e.altKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, typing: isTyping(e.target) }, '');
    if (action?.kind !== 'arm' || pending) return;
    const active = document.activeElement;
    const row = active?.closest<HTMLTableRowElement>(`[data-testid="${table}"] tbody tr[data-request-id]`);
    if (!row) return;
    e.preventDefault();
    if (row.dataset.canDecide !== 'true') {
      setNote(`You cannot decide request ${row.dataset.requestLabel ?? ''}: ${row.dataset.whyNot ?? 'not yours to decide'}.`);
      return;
    }
    setNote(null);
    setReason('');
    setOpen({ id: row.dataset.requestId!, label: row.dataset.requestLabel ?? '', verdict: action.verdict, row });
  });
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const close = (focusRow: boolean) => {
    const row = open?.row;
    setOpen(null);
    if (focusRow) row?.querySelector<HTMLAnchorElement>('a[data-row-link]')?.focus();
  };

  const onBoxKey = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    const action = reasonBoxKey(e, open.verdict, reason);
    if (!action) return;
    e.preventDefault();
    if (action.kind === 'disarm') return close(true);
    if (action.kind === 'too-short') return setNote('Give a reason of at least 3 characters, then Enter.');
    const { id, label, verdict } = open;
    start(async () => {
      const res = await decideApprovalAction({ id, verdict, reason });
      setNote(res.ok ? `Request ${label}: ${res.data.message}` : `Request ${label}: ${res.fieldErrors ? Object.values(res.fieldErrors).flat().join(' ') : res.error}`);
      if (res.ok) {
        close(true);
        router.refresh();
      }
    });
  };

  return (
    <>
      {open ? (
        <div className="panel" role="group" aria-label={`Decide request ${open.label}`} data-testid="queue-decide">
          <label htmlFor="queue-reason">
            {open.verdict === 'approve' ? 'Approve' : 'Deny'} request <span className="mono">{open.label}</span>: reason (Enter to {open.verdict}, Escape
            to cancel)
          </label>
          <textarea id="queue-reason" ref={boxRef} rows={2} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} onKeyDown={onBoxKey} disabled={pending} />
        </div>
      ) : null}
      <p className="small" role="status" data-testid="queue-decide-note">
        {note}
      </p>
    </>
  );
}

'use client';
/**
 * Reconciles one unknown journal entry and shows what the ledger said.
 * Rendered for every row an operator may reconcile, not only unknown ones: the reconcile changes the
 * row's status, and a component mounted only while the status is unknown would take its own outcome
 * message away with it on the refresh.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { reconcileEffectAction } from '@/lib/actions/reconcile-effect';

export function ReconcileButton({ operationKey, status }: { operationKey: string; status: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  if (status !== 'unknown' && message === null) return null;
  return (
    <div>
      {status === 'unknown' ? (
        <button
          type="button"
          className="small"
          disabled={pending}
          onClick={() =>
            start(async () => {
              const res = await reconcileEffectAction({ operationKey });
              setMessage(res.ok ? `now ${res.data.status}` : res.error);
              router.refresh();
            })
          }
        >
          {pending ? 'Reconciling…' : 'Reconcile'}
        </button>
      ) : null}
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}

'use client';
/** Reconciles one unknown journal entry and shows what the ledger said. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { reconcileEffectAction } from '@/lib/actions/reconcile-effect';

export function ReconcileButton({ operationKey }: { operationKey: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div>
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
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}

'use client';
/** Remove an endpoint; send a logged delivery again. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { redeliverWebhookAction } from '@/lib/actions/redeliver-webhook';
import { removeWebhookAction } from '@/lib/actions/remove-webhook';

export function EndpointActions({ id, url }: { id: string; url: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={`Remove the webhook to ${url}`}
        onClick={() =>
          start(async () => {
            const res = await removeWebhookAction({ endpointId: id });
            setError(res.ok ? null : res.error);
            router.refresh();
          })
        }
      >
        Remove
      </button>
      {error ? <span className="alert error small">{error}</span> : null}
    </>
  );
}

export function RedeliverButton({ id }: { id: string }) {
  const router = useRouter();
  const [note, setNote] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={`Send delivery ${id} again`}
        onClick={() =>
          start(async () => {
            const res = await redeliverWebhookAction({ deliveryId: id });
            setNote(res.ok ? 'queued' : res.error);
            router.refresh();
          })
        }
      >
        Redeliver
      </button>
      {note ? (
        <span role="status" className="small">
          {' '}
          {note}
        </span>
      ) : null}
    </>
  );
}

'use client';
/** Deletes one run after a confirmation, then refreshes the table. */
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { deleteRunAction } from '@/lib/actions/delete-run';

export function DeleteRunButton({ runId, after }: { runId: string; after?: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className="danger small"
      disabled={pending}
      onClick={() => {
        if (!window.confirm('Delete this run and its trajectory?')) return;
        start(async () => {
          const res = await deleteRunAction({ runId });
          if (!res.ok) window.alert(res.error);
          else if (after) router.push(after);
          else router.refresh();
        });
      }}
    >
      {pending ? 'Deleting…' : 'Delete'}
    </button>
  );
}

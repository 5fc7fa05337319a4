'use client';
/**
 * Erases a run's content (admins) after a confirmation, keeping its evidence; offers the signed
 * receipt as a JSON download and refreshes the page, which then shows "[erased]" where content was.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { eraseRunAction } from '@/lib/actions/erase-run';

export function EraseRunButton({ runId }: { runId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [receipt, setReceipt] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="danger small"
        disabled={pending}
        data-testid="erase-run"
        onClick={() => {
          if (!window.confirm('Erase this run’s content (question, answer, tool data, messages, comments)? Its evidence is kept. This cannot be undone.')) return;
          start(async () => {
            const res = await eraseRunAction({ runId });
            if (!res.ok) window.alert(res.error);
            else {
              setReceipt(JSON.stringify(res.data.receipt, null, 2));
              router.refresh();
            }
          });
        }}
      >
        {pending ? 'Erasing…' : 'Erase content'}
      </button>
      {receipt ? (
        <a className="button small" href={`data:application/json;charset=utf-8,${encodeURIComponent(receipt)}`} download={`erasure-${runId}.json`} data-testid="erasure-receipt">
          Erasure receipt
        </a>
      ) : null}
    </>
  );
}

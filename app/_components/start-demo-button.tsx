'use client';
/** Starts the weakness matrix on the bundled dataset and opens the matrix page to follow it. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { startMatrixAction } from '@/lib/actions/start-matrix';
import { BUNDLED_DATASET_ID } from '@/lib/schemas/datasets';
import { RoleNote } from '@/components/role-note';

/** `runBlocked` says why the caller cannot start it (a missing role), or is null. */
export function StartDemoButton({ runBlocked = null }: { runBlocked?: string | null }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={pending || runBlocked !== null}
        aria-describedby={runBlocked ? 'start-demo-note' : undefined}
        data-testid="start-demo"
        onClick={() =>
          start(async () => {
            const res = await startMatrixAction({ datasetId: BUNDLED_DATASET_ID });
            if (res.ok) router.push(`/matrix?suite=${res.data.suiteRunId}`);
            else setError(res.error);
          })
        }
      >
        {pending ? 'Starting…' : 'Run the matrix on the bundled dataset'}
      </button>
      {runBlocked ? <RoleNote id="start-demo-note" text={runBlocked} /> : null}
      {error ? <p className="alert error">{error}</p> : null}
    </>
  );
}

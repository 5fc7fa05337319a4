'use client';
/** Runs a golden case under another setting (the same dataset and transport) and opens the comparison with it. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { runOneAction } from '@/lib/actions/run-one';
import type { WeaknessFlag } from '@/lib/harness/config';
import type { RunSettingsInput } from '@/lib/schemas/run-settings';

export function RunSameCase({
  a,
  datasetId,
  caseId,
  weaknesses,
  transport,
  setting,
}: {
  a: string;
  datasetId: string;
  caseId: string;
  weaknesses: WeaknessFlag[];
  transport: RunSettingsInput['transport'];
  setting: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = () =>
    start(async () => {
      setError(null);
      const res = await runOneAction({ datasetId, caseId, weaknesses, transport });
      if (res.ok) router.push(`/compare?a=${a}&b=${res.data.runId}`);
      else setError(res.error);
    });
  return (
    <>
      <button type="button" className="primary" onClick={run} disabled={pending} data-testid="run-same-case">
        {pending ? 'Running…' : `Run ${caseId} under ${setting} now and compare`}
      </button>
      {error ? <p className="alert error">{error}</p> : null}
    </>
  );
}

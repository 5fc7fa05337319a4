'use client';
/**
 * Admins: calibrate a judge (the fake one, or a provider:model the server holds credentials for,
 * picked with the run form's model picker) on this tenant's labelled runs or on the course's
 * calibration set. Each source says up front whether it can run: labels say how many more are needed.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import Link from 'next/link';
import { runCalibrationAction } from '@/lib/actions/run-calibration';
import { ModelPicker } from '@/components/model-picker';
import type { ModelProvider } from '@/lib/harness/config';

export interface CalibrationSources {
  labels: { labelled: number; needed: number; min: number };
  /** The course's set: its name and items, or why it is missing. */
  file: { ok: true; name: string; items: number } | { ok: false; problem: string };
}

export function RunCalibrationForm({ sources, providers }: { sources: CalibrationSources; providers: readonly ModelProvider[] }) {
  const router = useRouter();
  const [judge, setJudge] = useState('fake');
  const [source, setSource] = useState<'labels' | 'file'>(sources.file.ok && sources.labels.needed > 0 ? 'file' : 'labels');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const blocked = source === 'labels' ? sources.labels.needed > 0 : !sources.file.ok;
  return (
    <form
      className="panel stack"
      aria-label="Run the calibration"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          setMessage(null);
          setError(null);
          const res = await runCalibrationAction({ judge, source });
          if (res.ok) {
            setMessage(`Stored: agreement ${res.data.agreement ?? '—'}, kappa ${res.data.kappa ?? 'undefined'}${res.data.unscored ? `, ${res.data.unscored} unscored` : ''}.`);
            router.push(`/judge?id=${res.data.id}`);
            router.refresh();
          } else setError(res.fieldErrors?.judge?.[0] ?? res.error);
        });
      }}
    >
      <h2 style={{ marginTop: 0 }}>Calibrate a judge</h2>
      <fieldset className="row small" style={{ border: 0, padding: 0 }}>
        <legend className="visually-hidden">Against which labels</legend>
        <label>
          <input type="radio" name="calibration-source" value="labels" checked={source === 'labels'} onChange={() => setSource('labels')} data-testid="source-labels" /> this tenant&apos;s
          labels ({sources.labels.labelled} run{sources.labels.labelled === 1 ? '' : 's'} labelled pass or fail)
        </label>
        <label>
          <input type="radio" name="calibration-source" value="file" checked={source === 'file'} onChange={() => setSource('file')} disabled={!sources.file.ok} /> the course&apos;s set
          {sources.file.ok ? ` (${sources.file.name}, ${sources.file.items} items)` : ' (not on this server)'}
        </label>
      </fieldset>
      <ModelPicker value={judge} onChange={setJudge} providers={providers} idPrefix="judge" label="Judge" fakeLabel="fake (deterministic judge)" />
      {source === 'labels' && sources.labels.needed > 0 ? (
        <p className="alert info" data-testid="labels-needed">
          A calibration on labels needs {sources.labels.min} runs labelled pass or fail as a whole; label {sources.labels.needed} more in the{' '}
          <Link href="/label-queue">labelling queue</Link> (or on any run&apos;s replay).
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="primary" disabled={pending || blocked} data-testid="run-calibration">
          {pending ? 'Calibrating…' : 'Run calibration'}
        </button>
        {message ? (
          <p className="small" role="status">
            {message}
          </p>
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}

'use client';
/** Admins: score the calibration set with a judge (fake, or a provider:model the server holds credentials for). */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { runCalibrationAction } from '@/lib/actions/run-calibration';

export function RunCalibrationForm() {
  const router = useRouter();
  const [judge, setJudge] = useState('fake');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className="panel row"
      style={{ alignItems: 'flex-end' }}
      aria-label="Run the calibration"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          setMessage(null);
          setError(null);
          const res = await runCalibrationAction({ judge });
          if (res.ok) {
            setMessage(`Stored: agreement ${res.data.agreement ?? '—'}, kappa ${res.data.kappa ?? 'undefined'}${res.data.unscored ? `, ${res.data.unscored} unscored` : ''}.`);
            router.push(`/judge?id=${res.data.id}`);
            router.refresh();
          } else setError(res.fieldErrors?.judge?.[0] ?? res.error);
        });
      }}
    >
      <div className="field">
        <label htmlFor="judge-name">Judge</label>
        <input id="judge-name" name="judge" value={judge} onChange={(e) => setJudge(e.target.value)} placeholder="fake or openai:gpt-4o-mini" size={32} aria-describedby="judge-help" />
        <span id="judge-help" className="small muted">
          fake, or provider:model (bedrock, openai, openai-compatible, anthropic) with its credentials on the server
        </span>
      </div>
      <button type="submit" className="primary" disabled={pending}>
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
    </form>
  );
}

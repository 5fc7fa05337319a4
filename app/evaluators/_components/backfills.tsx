'use client';
/**
 * Backfills (issue 37): an admin runs an evaluator's current version over the runs stored in a window
 * (times in UTC), as background jobs; the list shows each one's progress while it runs (re-read every
 * few seconds) and lets an admin cancel it. The scores it stored stay when it is cancelled.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { cancelBackfillAction } from '@/lib/actions/cancel-backfill';
import { startBackfillAction } from '@/lib/actions/start-backfill';
import { FieldError } from '@/app/webhooks/_components/endpoint-fields';

/** A `datetime-local` value (UTC) of a time. */
const localUtc = (d: Date) => d.toISOString().slice(0, 16);

export function BackfillForm({ evaluators, now }: { evaluators: ReadonlyArray<{ id: string; name: string; version: number }>; now: string }) {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const to = new Date(now);
  const from = new Date(to.getTime() - 7 * 86_400_000);
  const submit = (form: FormData) =>
    start(async () => {
      const res = await startBackfillAction({ evaluatorId: String(form.get('evaluatorId') ?? ''), from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') } as never);
      setError(res.ok ? null : res.error);
      setFieldErrors(res.ok ? {} : (res.fieldErrors ?? {}));
      router.refresh();
    });
  const err = (field: string) => <FieldError prefix="bf" field={field} fieldErrors={fieldErrors} />;
  const described = (field: string) => ({ 'aria-invalid': fieldErrors[field] ? true : undefined, 'aria-describedby': fieldErrors[field] ? `bf-${field}-error` : undefined });
  if (evaluators.length === 0) return <p className="muted">Define and enable an evaluator to backfill it.</p>;
  return (
    <form action={submit} data-testid="backfill-form" aria-label="Backfill an evaluator">
      <div className="row" style={{ flexWrap: 'wrap', gap: '0.75rem', alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="bf-evaluatorId">Evaluator</label>
          <select id="bf-evaluatorId" name="evaluatorId" {...described('evaluatorId')}>
            {evaluators.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name} v{e.version}
              </option>
            ))}
          </select>
          {err('evaluatorId')}
        </div>
        <div className="field">
          <label htmlFor="bf-from">Runs started from (UTC)</label>
          <input id="bf-from" name="from" type="datetime-local" defaultValue={localUtc(from)} required {...described('from')} />
          {err('from')}
        </div>
        <div className="field">
          <label htmlFor="bf-to">until (UTC)</label>
          <input id="bf-to" name="to" type="datetime-local" defaultValue={localUtc(to)} required {...described('to')} />
          {err('to')}
        </div>
        <button type="submit" className="primary" disabled={pending}>
          Backfill
        </button>
      </div>
      {error ? (
        <p className="alert error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export function CancelBackfill({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={`Cancel the backfill of ${name}`}
        onClick={() =>
          start(async () => {
            const res = await cancelBackfillAction({ backfillId: id });
            setError(res.ok ? null : res.error);
            router.refresh();
          })
        }
      >
        Cancel
      </button>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}

'use client';
/**
 * Adds a webhook. Refusals come back per field (URL, secret, events) from the server; a generated
 * secret is shown once, here, and never again.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { addWebhookAction } from '@/lib/actions/add-webhook';
import { EventsFieldset, FieldError, ReachesField } from './endpoint-fields';

export function AddWebhookForm() {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const submit = (form: FormData) =>
    start(async () => {
      setSecret(null);
      const res = await addWebhookAction({
        url: String(form.get('url') ?? ''),
        secret: String(form.get('secret') ?? ''),
        format: form.get('format') === 'slack' ? 'slack' : 'standard',
        role: form.get('role') === 'admin' ? 'admin' : 'reviewer',
        events: form.getAll('events').map(String) as never,
      });
      if (!res.ok) {
        setError(res.error);
        setFieldErrors(res.fieldErrors ?? {});
        return;
      }
      setError(null);
      setFieldErrors({});
      setSecret(res.data.secret);
      router.refresh();
    });
  const err = (field: string) => <FieldError prefix="wh" field={field} fieldErrors={fieldErrors} />;
  return (
    <section className="panel" aria-labelledby="add-webhook-heading">
      <h2 id="add-webhook-heading">Add a webhook</h2>
      <form action={submit} data-testid="add-webhook">
        <div className="row" style={{ flexWrap: 'wrap', gap: '0.75rem' }}>
          <div className="field" style={{ flex: 2, minWidth: '18rem' }}>
            <label htmlFor="wh-url">URL (http or https)</label>
            <input id="wh-url" name="url" type="url" required aria-invalid={fieldErrors.url ? true : undefined} aria-describedby={fieldErrors.url ? 'wh-url-error' : undefined} />
            {err('url')}
          </div>
          <div className="field" style={{ flex: 1, minWidth: '14rem' }}>
            <label htmlFor="wh-secret">Signing secret (empty: generate one)</label>
            <input id="wh-secret" name="secret" type="password" autoComplete="off" aria-invalid={fieldErrors.secret ? true : undefined} aria-describedby={fieldErrors.secret ? 'wh-secret-error' : undefined} />
            {err('secret')}
          </div>
          <div className="field">
            <label htmlFor="wh-format">Format</label>
            <select id="wh-format" name="format" defaultValue="standard">
              <option value="standard">Standard Webhooks JSON</option>
              <option value="slack">Slack-compatible text</option>
            </select>
          </div>
          <ReachesField prefix="wh" />
        </div>
        <EventsFieldset prefix="wh" fieldErrors={fieldErrors} />
        <button type="submit" className="primary" disabled={pending}>
          Add webhook
        </button>
        {error ? (
          <p className="alert error" role="alert">
            {error}
          </p>
        ) : null}
        {secret ? (
          <p className="alert info" role="status" data-testid="generated-secret">
            The signing secret, shown only now: <span className="mono">{secret}</span>
          </p>
        ) : null}
      </form>
    </section>
  );
}

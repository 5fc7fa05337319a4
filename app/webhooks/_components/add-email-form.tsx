'use client';
/**
 * Adds an email notification. Each SMTP setting left empty comes from the operator's
 * STOCKROOM_SMTP_* variables; one missing from both comes back refused under its field. The
 * password is sent once, stored sealed, and never shown again.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { addEmailEndpointAction } from '@/lib/actions/add-email-endpoint';
import { EventsFieldset, FieldError, ReachesField } from './endpoint-fields';

const FIELDS = [
  { name: 'smtpHost', label: 'SMTP host', type: 'text' },
  { name: 'smtpPort', label: 'Port', type: 'text' },
  { name: 'smtpFrom', label: 'Sender address', type: 'email' },
  { name: 'smtpUser', label: 'SMTP user', type: 'text' },
  { name: 'smtpPassword', label: 'SMTP password', type: 'password' },
] as const;

export function AddEmailForm() {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();
  const text = (form: FormData, name: string) => String(form.get(name) ?? '');
  const submit = (form: FormData) =>
    start(async () => {
      setSaved(false);
      const secure = form.get('smtpSecure');
      const res = await addEmailEndpointAction({
        recipients: text(form, 'recipients'),
        smtpHost: text(form, 'smtpHost'),
        smtpPort: text(form, 'smtpPort'),
        smtpSecure: secure === 'true' ? true : secure === 'false' ? false : undefined,
        smtpFrom: text(form, 'smtpFrom'),
        smtpUser: text(form, 'smtpUser'),
        smtpPassword: text(form, 'smtpPassword'),
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
      setSaved(true);
      router.refresh();
    });
  const invalid = (field: string) => ({
    'aria-invalid': fieldErrors[field] ? true : undefined,
    'aria-describedby': fieldErrors[field] ? `em-${field}-error` : undefined,
  });
  const err = (field: string) => <FieldError prefix="em" field={field} fieldErrors={fieldErrors} />;
  return (
    <section className="panel" aria-labelledby="add-email-heading">
      <h2 id="add-email-heading">Add an email notification</h2>
      <p className="small muted">Leave an SMTP setting empty to use the operator’s (STOCKROOM_SMTP_*). A user and password given here are used only with a host given here.</p>
      <form action={submit} data-testid="add-email">
        <div className="row" style={{ flexWrap: 'wrap', gap: '0.75rem' }}>
          <div className="field" style={{ flex: 2, minWidth: '18rem' }}>
            <label htmlFor="em-recipients">Recipients (commas between)</label>
            <input id="em-recipients" name="recipients" type="text" required {...invalid('recipients')} />
            {err('recipients')}
          </div>
          {FIELDS.map((f) => (
            <div className="field" key={f.name}>
              <label htmlFor={`em-${f.name}`}>{f.label}</label>
              <input id={`em-${f.name}`} name={f.name} type={f.type} autoComplete="off" {...invalid(f.name)} />
              {err(f.name)}
            </div>
          ))}
          <div className="field">
            <label htmlFor="em-smtpSecure">TLS</label>
            <select id="em-smtpSecure" name="smtpSecure" defaultValue="">
              <option value="">the operator’s</option>
              <option value="false">STARTTLS when offered</option>
              <option value="true">TLS from the start</option>
            </select>
          </div>
          <ReachesField prefix="em" />
        </div>
        <EventsFieldset prefix="em" fieldErrors={fieldErrors} />
        <button type="submit" className="primary" disabled={pending}>
          Add email notification
        </button>
        {error ? (
          <p className="alert error" role="alert">
            {error}
          </p>
        ) : null}
        {saved ? (
          <p className="alert info" role="status">
            Saved. Its deliveries appear in the log below like a webhook’s.
          </p>
        ) : null}
      </form>
    </section>
  );
}

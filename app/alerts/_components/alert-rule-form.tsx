'use client';
/** Adds or changes an alert rule (admins); refusals come back per field. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { removeAlertRuleAction } from '@/lib/actions/remove-alert-rule';
import { saveAlertRuleAction } from '@/lib/actions/save-alert-rule';
import { FieldError } from '@/app/webhooks/_components/endpoint-fields';

export function AlertRuleForm() {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [kind, setKind] = useState('error_share');
  const [pending, start] = useTransition();
  const submit = (form: FormData) =>
    start(async () => {
      const res = await saveAlertRuleAction({ name: String(form.get('name') ?? ''), kind: kind as never, threshold: String(form.get('threshold') ?? ''), evaluator: String(form.get('evaluator') ?? '') });
      if (!res.ok) {
        setError(res.error);
        setFieldErrors(res.fieldErrors ?? {});
        return;
      }
      setError(null);
      setFieldErrors({});
      router.refresh();
    });
  const err = (field: string) => <FieldError prefix="al" field={field} fieldErrors={fieldErrors} />;
  const described = (field: string) => ({ 'aria-invalid': fieldErrors[field] ? true : undefined, 'aria-describedby': fieldErrors[field] ? `al-${field}-error` : undefined });
  return (
    <section className="panel" aria-labelledby="add-rule-heading">
      <h2 id="add-rule-heading">Add an alert rule</h2>
      <form action={submit} data-testid="alert-rule-form">
        <div className="row" style={{ flexWrap: 'wrap', gap: '0.75rem' }}>
          <div className="field">
            <label htmlFor="al-name">Name</label>
            <input id="al-name" name="name" required {...described('name')} />
            {err('name')}
          </div>
          <div className="field">
            <label htmlFor="al-kind">When</label>
            <select id="al-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
              <option value="error_share">MODEL_ERROR share in an hour is over</option>
              <option value="score_drop">an evaluator’s mean score fell, week on week, by at least</option>
              <option value="daily_cost">cost per day (USD) is over</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="al-threshold">{kind === 'error_share' ? 'Share (0.05 is 5%)' : kind === 'score_drop' ? 'Drop of the mean (0 to 1)' : 'USD per day'}</label>
            <input id="al-threshold" name="threshold" inputMode="decimal" required {...described('threshold')} />
            {err('threshold')}
          </div>
          {kind === 'score_drop' ? (
            <div className="field">
              <label htmlFor="al-evaluator">Evaluator</label>
              <input id="al-evaluator" name="evaluator" {...described('evaluator')} />
              {err('evaluator')}
            </div>
          ) : null}
        </div>
        <button type="submit" className="primary" disabled={pending}>
          Save rule
        </button>
        {error ? (
          <p className="alert error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}

export function RemoveAlertRule({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      disabled={pending}
      aria-label={`Remove the alert rule ${name}`}
      onClick={() =>
        start(async () => {
          await removeAlertRuleAction({ ruleId: id });
          router.refresh();
        })
      }
    >
      Remove
    </button>
  );
}

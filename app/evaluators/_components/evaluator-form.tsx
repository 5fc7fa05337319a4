'use client';
/**
 * Defines an online evaluator (admins). A name already used stores the evaluator's next version.
 * Refusals come back per field from the server (a judge without credentials names `judge`).
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { removeEvaluatorAction } from '@/lib/actions/remove-evaluator';
import { saveEvaluatorAction } from '@/lib/actions/save-evaluator';
import { FieldError } from '@/app/webhooks/_components/endpoint-fields';

const KINDS: Array<[string, string]> = [
  ['loop_findings', 'Loop findings (repeated calls, loops, redundant queries)'],
  ['invalid_call_rate', 'Invalid-call rate'],
  ['guard_trips', 'Guard trips'],
  ['blocked_calls', 'Blocked calls'],
  ['cost', 'Cost (USD, optional maximum)'],
  ['latency', 'Latency (ms, optional maximum)'],
  ['guardrail', 'Guardrail detectors'],
  ['judge', 'Judge (faithfulness to the tool results)'],
];
const DETECTORS = ['no_pii', 'no_secrets', 'no_injection'];

export function EvaluatorForm() {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [kind, setKind] = useState('loop_findings');
  const [pending, start] = useTransition();
  const text = (form: FormData, name: string) => String(form.get(name) ?? '');
  const submit = (form: FormData) =>
    start(async () => {
      setSaved(null);
      const res = await saveEvaluatorAction({
        name: text(form, 'name'),
        kind: text(form, 'kind') as never,
        enabled: form.get('enabled') === 'on',
        max: text(form, 'max'),
        detectors: form.getAll('detectors').map(String) as never,
        judge: text(form, 'judge'),
        sampleRate: kind === 'judge' ? text(form, 'sampleRate') : undefined,
        dailyCapUsd: kind === 'judge' ? text(form, 'dailyCapUsd') : undefined,
        source: text(form, 'source') as never,
        modelId: text(form, 'modelId'),
        agent: text(form, 'agent'),
        sessionId: text(form, 'sessionId'),
        tag: text(form, 'tag'),
      });
      if (!res.ok) {
        setError(res.error);
        setFieldErrors(res.fieldErrors ?? {});
        return;
      }
      setError(null);
      setFieldErrors({});
      setSaved(`Saved ${res.data.evaluator.name} v${res.data.evaluator.version}.`);
      router.refresh();
    });
  const err = (field: string) => <FieldError prefix="ev" field={field} fieldErrors={fieldErrors} />;
  const described = (field: string) => ({ 'aria-invalid': fieldErrors[field] ? true : undefined, 'aria-describedby': fieldErrors[field] ? `ev-${field}-error` : undefined });
  return (
    <section className="panel" aria-labelledby="add-evaluator-heading">
      <h2 id="add-evaluator-heading">Define an evaluator</h2>
      <form action={submit} data-testid="evaluator-form">
        <div className="row" style={{ flexWrap: 'wrap', gap: '0.75rem' }}>
          <div className="field">
            <label htmlFor="ev-name">Name</label>
            <input id="ev-name" name="name" required {...described('name')} />
            {err('name')}
          </div>
          <div className="field">
            <label htmlFor="ev-kind">Kind</label>
            <select id="ev-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value)} {...described('kind')}>
              {KINDS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
            {err('kind')}
          </div>
          {kind === 'cost' || kind === 'latency' ? (
            <div className="field">
              <label htmlFor="ev-max">{kind === 'cost' ? 'Most USD that scores 1' : 'Most ms that scores 1'}</label>
              <input id="ev-max" name="max" inputMode="decimal" {...described('max')} />
              {err('max')}
            </div>
          ) : null}
          {kind === 'judge' ? (
            <>
              <div className="field">
                <label htmlFor="ev-judge">Judge (fake or provider:model)</label>
                <input id="ev-judge" name="judge" defaultValue="fake" {...described('judge')} />
                {err('judge')}
              </div>
              <div className="field">
                <label htmlFor="ev-sampleRate">Sampling rate (0 to 1)</label>
                <input id="ev-sampleRate" name="sampleRate" inputMode="decimal" defaultValue="1" {...described('sampleRate')} />
                {err('sampleRate')}
              </div>
              <div className="field">
                <label htmlFor="ev-dailyCapUsd">Spend cap per day (USD, empty: none)</label>
                <input id="ev-dailyCapUsd" name="dailyCapUsd" inputMode="decimal" {...described('dailyCapUsd')} />
                {err('dailyCapUsd')}
              </div>
            </>
          ) : null}
        </div>
        {kind === 'guardrail' ? (
          <fieldset aria-describedby={fieldErrors.detectors ? 'ev-detectors-error' : undefined}>
            <legend>Detectors</legend>
            {DETECTORS.map((d) => (
              <label key={d} style={{ marginRight: '1rem' }}>
                <input type="checkbox" name="detectors" value={d} defaultChecked={d === 'no_pii'} /> {d}
              </label>
            ))}
            {err('detectors')}
          </fieldset>
        ) : null}
        <fieldset>
          <legend>Runs it scores (empty: every finished run)</legend>
          <div className="row" style={{ flexWrap: 'wrap', gap: '0.75rem' }}>
            <div className="field">
              <label htmlFor="ev-source">Source</label>
              <select id="ev-source" name="source" defaultValue="">
                <option value="">made here or imported</option>
                <option value="harness">made here</option>
                <option value="imported">imported</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="ev-modelId">Model</label>
              <input id="ev-modelId" name="modelId" {...described('modelId')} />
              {err('modelId')}
            </div>
            <div className="field">
              <label htmlFor="ev-agent">Agent name</label>
              <input id="ev-agent" name="agent" {...described('agent')} />
              {err('agent')}
            </div>
            <div className="field">
              <label htmlFor="ev-sessionId">Session</label>
              <input id="ev-sessionId" name="sessionId" {...described('sessionId')} />
              {err('sessionId')}
            </div>
            <div className="field">
              <label htmlFor="ev-tag">Tag</label>
              <input id="ev-tag" name="tag" maxLength={64} {...described('tag')} />
              {err('tag')}
            </div>
          </div>
        </fieldset>
        <label>
          <input type="checkbox" name="enabled" defaultChecked /> Enabled
        </label>{' '}
        <button type="submit" className="primary" disabled={pending}>
          Save evaluator
        </button>
        {error ? (
          <p className="alert error" role="alert">
            {error}
          </p>
        ) : null}
        {saved ? (
          <p className="alert info" role="status" data-testid="evaluator-saved">
            {saved}
          </p>
        ) : null}
      </form>
    </section>
  );
}

export function RemoveEvaluator({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={`Remove the evaluator ${name}`}
        onClick={() =>
          start(async () => {
            const res = await removeEvaluatorAction({ evaluatorId: id });
            setError(res.ok ? null : res.error);
            router.refresh();
          })
        }
      >
        Remove
      </button>
      {error ? <span className="alert error small">{error}</span> : null}
    </>
  );
}

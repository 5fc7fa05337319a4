'use client';
/**
 * Labelling in the replay: the current step's and the run's labels (the newest of each; older ones
 * listed as superseded), and for reviewers a form whose verdicts are also keys: 1-9 label the step on
 * screen (or the whole run after `w`), with the category, score and comment filled in below.
 */
import { LabelCategorySelect } from '@/components/label-category-select';
import { useEffect, useState, useTransition } from 'react';
import { addLabelAction } from '@/lib/actions/add-label';
import { currentLabels, keyOfVerdict, verdictForKey } from '@/lib/eval/labels';
import { isTyping } from '@/components/is-typing';
import { LabelBadges, type LabelView } from '@/components/label-badges';

export interface LabelSetView {
  version: number;
  verdicts: string[];
  categories: string[];
}

export function LabelPanel({
  runId,
  step,
  labelSet,
  initialLabels,
  canLabel,
  unverified,
}: {
  runId: string;
  step: number;
  labelSet: LabelSetView;
  initialLabels: LabelView[];
  canLabel: boolean;
  /** Ids of labels that no longer match their evidence event. */
  unverified: string[];
}) {
  const [labels, setLabels] = useState(initialLabels);
  const [scope, setScope] = useState<'step' | 'run'>('step');
  const [category, setCategory] = useState('');
  const [score, setScore] = useState('');
  const [comment, setComment] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const withRun = labels.map((l) => ({ ...l, runId }));
  const current = currentLabels(withRun);
  const forStep = current.find((l) => l.step === step) ?? null;
  const forRun = current.find((l) => l.step === null) ?? null;
  const superseded = labels.length - current.length;

  const submit = (verdict: string) => {
    const scoreValue = score.trim() === '' ? null : Number(score);
    start(async () => {
      const res = await addLabelAction({ runId, step: scope === 'step' ? step : null, verdict, category: category || null, score: scoreValue, comment });
      if (!res.ok) {
        setMessage(Object.entries(res.fieldErrors ?? {}).map(([f, m]) => `${f}: ${m.join(', ')}`).join('; ') || res.error);
        return;
      }
      setLabels((ls) => [...ls, res.data]);
      setComment('');
      setMessage(`Labelled ${scope === 'step' ? `step ${step}` : 'the run'} ${verdict}.`);
    });
  };

  useEffect(() => {
    if (!canLabel) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'w') {
        setScope((s) => (s === 'step' ? 'run' : 'step'));
        e.preventDefault();
        return;
      }
      const verdict = verdictForKey(labelSet, e.key);
      if (!verdict || pending) return;
      e.preventDefault();
      submit(verdict);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <div className="panel" data-testid="label-panel">
      <h2>Labels</h2>
      <p className="small" data-testid="label-current">
        Step {step}: {forStep ? <LabelBadges label={forStep} testId="step-label" /> : <span className="muted">not labelled</span>} · Run:{' '}
        {forRun ? <LabelBadges label={forRun} testId="run-label" /> : <span className="muted">not labelled</span>}
        {superseded > 0 ? <span className="muted"> · {superseded} earlier label(s) superseded, kept in the history</span> : null}
      </p>
      {forStep?.comment ? <p className="small">“{forStep.comment}” — {forStep.createdByName}</p> : null}
      {unverified.length > 0 ? (
        <p className="small badge bad" role="alert">
          {unverified.length} stored label(s) no longer match the evidence that recorded them.
        </p>
      ) : null}
      {canLabel ? (
        <>
          <div className="row small" role="group" aria-label="What to label">
            <label>
              <input type="radio" name="label-scope" checked={scope === 'step'} onChange={() => setScope('step')} /> this step ({step})
            </label>
            <label>
              <input type="radio" name="label-scope" checked={scope === 'run'} onChange={() => setScope('run')} /> the whole run
            </label>
            <span className="muted">(w switches)</span>
          </div>
          <div className="row small">
            <LabelCategorySelect categories={labelSet.categories} value={category} onChange={setCategory} />
            <label>
              Score (0-1) <input type="number" min={0} max={1} step={0.05} value={score} onChange={(e) => setScore(e.target.value)} style={{ width: '5rem' }} aria-label="Label score" />
            </label>
          </div>
          <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} placeholder="Comment (optional)" aria-label="Label comment" style={{ width: '100%' }} />
          <div className="row">
            {labelSet.verdicts.map((v) => (
              <button key={v} type="button" disabled={pending} onClick={() => submit(v)} data-testid={`label-${v}`}>
                {v} <kbd>{keyOfVerdict(labelSet, v)}</kbd>
              </button>
            ))}
          </div>
          <p className="small muted" aria-live="polite" data-testid="label-message">
            {message ?? `Keys ${labelSet.verdicts.map((v) => `${keyOfVerdict(labelSet, v)} ${v}`).join(', ')} label ${scope === 'step' ? 'this step' : 'the whole run'} (label set v${labelSet.version}).`}
          </p>
        </>
      ) : (
        <p className="small muted">Reviewers label runs and steps.</p>
      )}
    </div>
  );
}

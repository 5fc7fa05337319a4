'use client';
/**
 * Labelling in the replay: the current step's and the run's labels (the newest of each; older ones
 * listed as superseded), and for reviewers a form whose verdicts are also keys: 1-9 label the step on
 * screen (or the whole run after `w`), with the category, score and comment filled in below. A key
 * never silently replaces a richer label (one with a category, score or comment the form leaves out):
 * it asks first; and every stored label that superseded another offers an undo (the earlier label
 * stored again as the newest — labels are appended, never edited).
 */
import { LabelCategorySelect } from '@/components/label-category-select';
import { useEffect, useState, useTransition } from 'react';
import { addLabelAction } from '@/lib/actions/add-label';
import { currentLabels, keyOfVerdict, losesDetail, verdictForKey } from '@/lib/eval/label-keys';
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

  const target = scope === 'step' ? forStep : forRun;
  const [confirm, setConfirm] = useState<string | null>(null);
  const [undo, setUndo] = useState<LabelView | null>(null);

  const store = (fields: { step: number | null; verdict: string; category: string | null; score: number | null; comment: string }, done: (stored: LabelView) => void) => {
    start(async () => {
      const res = await addLabelAction({ runId, ...fields });
      if (!res.ok) {
        setMessage(Object.entries(res.fieldErrors ?? {}).map(([f, m]) => `${f}: ${m.join(', ')}`).join('; ') || res.error);
        return;
      }
      setLabels((ls) => [...ls, res.data]);
      done(res.data);
    });
  };

  /** `byKey`: a bare key press, which must not drop a richer label's category, score or comment unasked. */
  const submit = (verdict: string, byKey = false) => {
    const scoreValue = score.trim() === '' ? null : Number(score);
    const detail = { category: category || null, score: scoreValue, comment };
    if (byKey && confirm !== verdict && losesDetail(target, detail)) {
      setConfirm(verdict);
      setMessage(null);
      return;
    }
    const previous = target;
    const where = scope === 'step' ? `step ${step}` : 'the run';
    setConfirm(null);
    store({ step: scope === 'step' ? step : null, verdict, ...detail }, () => {
      setComment('');
      setUndo(previous);
      setMessage(`Labelled ${where} ${verdict}.`);
    });
  };

  const undoLast = () => {
    const back = undo;
    if (!back) return;
    store({ step: back.step, verdict: back.verdict, category: back.category, score: back.score, comment: back.comment }, () => {
      setUndo(null);
      setMessage(`Restored the earlier label of ${back.step === null ? 'the run' : `step ${back.step}`} (${back.verdict}${back.category ? ` · ${back.category}` : ''}).`);
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
      submit(verdict, true);
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
          {confirm && target ? (
            <div className="alert warn" role="alert" data-testid="label-confirm">
              {scope === 'step' ? `Step ${step}` : 'The run'} already has <LabelBadges label={target} />
              {target.comment ? ` with the comment “${target.comment}”` : ''}. The key <kbd>{keyOfVerdict(labelSet, confirm)}</kbd> would replace it with a bare
              “{confirm}”, without that category, score or comment. Fill them in above, press the key again, or{' '}
              <button type="button" className="small" onClick={() => submit(confirm)} data-testid="label-confirm-replace">
                replace it with a bare {confirm}
              </button>{' '}
              <button type="button" className="small" onClick={() => setConfirm(null)}>
                keep it
              </button>
            </div>
          ) : null}
          {undo && !pending ? (
            <p className="small" data-testid="label-undo-row">
              The label replaced {undo.step === null ? 'the run’s' : `step ${undo.step}’s`} earlier one ({undo.verdict}
              {undo.category ? ` · ${undo.category}` : ''}
              {undo.comment ? ', with a comment' : ''}).{' '}
              <button type="button" className="small" onClick={undoLast} data-testid="label-undo">
                Undo: restore it
              </button>
            </p>
          ) : null}
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

'use client';
/**
 * One run at a time, keyboard first: 1-9 label the run with that verdict (with the category and
 * comment below) and move on; n or → next, s skip, p or ← back. Labels are sent in the background,
 * so the next run shows at once; each run's outcome (labelled, skipped, refused) stays listed.
 */
import { LabelCategorySelect } from '@/components/label-category-select';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { addLabelAction } from '@/lib/actions/add-label';
import type { QueueItem } from '@/lib/db/review/labels';
import { keyOfVerdict, verdictForKey } from '@/lib/eval/label-keys';
import { isTyping } from '@/components/is-typing';
import type { LabelSetView } from '@/app/runs/[id]/_components/label-panel';

type Outcome = { kind: 'sending' | 'labelled'; verdict: string } | { kind: 'skipped' } | { kind: 'refused'; error: string };

export function LabelQueue({ items: initialItems, labelSet }: { items: QueueItem[]; labelSet: LabelSetView }) {
  // The queue as it was opened: a refresh that drops the runs labelled since must not shift the position.
  const [items] = useState(initialItems);
  const [at, setAt] = useState(0);
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [category, setCategory] = useState('');
  const [comment, setComment] = useState('');
  const item = items[at] ?? null;
  const done = at >= items.length;

  const label = (verdict: string) => {
    if (!item) return;
    const runId = item.id;
    setOutcomes((o) => ({ ...o, [runId]: { kind: 'sending', verdict } }));
    void addLabelAction({ runId, step: null, verdict, category: category || null, score: null, comment }).then((res) =>
      setOutcomes((o) => ({ ...o, [runId]: res.ok ? { kind: 'labelled', verdict } : { kind: 'refused', error: res.error } })),
    );
    setComment('');
    setCategory('');
    setAt((i) => i + 1);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const verdict = verdictForKey(labelSet, e.key);
      if (verdict && !done) label(verdict);
      else if ((e.key === 'n' || e.key === 'ArrowRight') && !done) setAt((i) => i + 1);
      else if (e.key === 's' && item) {
        setOutcomes((o) => ({ ...o, [item.id]: o[item.id] ?? { kind: 'skipped' } }));
        setAt((i) => i + 1);
      } else if (e.key === 'p' || e.key === 'ArrowLeft') setAt((i) => Math.max(0, i - 1));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const counts = Object.values(outcomes).reduce<Record<string, number>>((c, o) => ({ ...c, [o.kind]: (c[o.kind] ?? 0) + 1 }), {});
  const refused = Object.entries(outcomes).filter(([, o]) => o.kind === 'refused');

  return (
    <section aria-label="Labelling queue" data-testid="label-queue">
      <p className="small" data-testid="queue-position">
        {done ? 'End of the queue' : `Run ${at + 1} of ${items.length}`} · {counts.labelled ?? 0} labelled · {counts.skipped ?? 0} skipped
        {counts.sending ? ` · ${counts.sending} saving` : ''}
        <span className="muted"> · keys {labelSet.verdicts.map((v) => `${keyOfVerdict(labelSet, v)} ${v}`).join(', ')}, n next, s skip, p back</span>
      </p>
      {refused.length > 0 ? (
        <p className="alert error" role="alert">
          Not saved: {refused.map(([id, o]) => `${id.slice(-8)} (${o.kind === 'refused' ? o.error : ''})`).join('; ')}
        </p>
      ) : null}
      {item ? (
        <div className="panel" data-testid="queue-item" data-run-id={item.id}>
          <p className="row small">
            <Link href={`/runs/${item.id}`} className="mono">
              {item.id.slice(-8)}
            </Link>
            {item.caseId ? <span className="badge info">case {item.caseId}</span> : null}
            <span className="badge">setting: {item.setting}</span>
            <span className="badge">{item.terminationReason}</span>
            {outcomes[item.id] ? <span className="badge">{outcomes[item.id]!.kind}</span> : null}
          </p>
          <p style={{ fontSize: '1.1rem' }} data-testid="queue-query">
            {item.query}
          </p>
          <h3>Answer</h3>
          <p style={{ whiteSpace: 'pre-wrap' }}>{item.finalAnswer || <span className="muted">(no answer)</span>}</p>
          <h3>Tool calls{item.toolCallCount > item.toolCalls.length ? ` (the first ${item.toolCalls.length} of ${item.toolCallCount})` : ''}</h3>
          <ol className="small">
            {item.toolCalls.map((c, i) => (
              <li key={i}>
                step {c.step}: <span className="mono">{c.name}</span> {c.isError ? <span className="badge bad">error</span> : null}
              </li>
            ))}
          </ol>
          <div className="row small">
            <LabelCategorySelect categories={labelSet.categories} value={category} onChange={setCategory} />
            <input value={comment} onChange={(e) => setComment(e.target.value)} placeholder="Comment (optional)" aria-label="Label comment" style={{ flex: 1 }} />
          </div>
          <div className="row">
            {labelSet.verdicts.map((v) => (
              <button key={v} type="button" onClick={() => label(v)} data-testid={`queue-${v}`}>
                {v} <kbd>{keyOfVerdict(labelSet, v)}</kbd>
              </button>
            ))}
            <button type="button" onClick={() => setAt((i) => i + 1)}>
              Next <kbd>n</kbd>
            </button>
          </div>
        </div>
      ) : (
        <p className="panel" data-testid="queue-done">
          Every run of this queue has been seen. <Link href="/runs?labelled=yes">See the labelled runs</Link>.
        </p>
      )}
    </section>
  );
}

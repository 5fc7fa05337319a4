'use client';
/** Admins: the tenant's label set (verdicts and categories, comma-separated); saving stores its next version. */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { saveLabelSetAction } from '@/lib/actions/save-label-set';
import type { LabelSetView } from '@/app/runs/[id]/_components/label-panel';

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function LabelSetForm({ labelSet }: { labelSet: LabelSetView }) {
  const router = useRouter();
  const [verdicts, setVerdicts] = useState(labelSet.verdicts.join(', '));
  const [categories, setCategories] = useState(labelSet.categories.join(', '));
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <details className="panel" data-testid="label-set-form">
      <summary>Label set (version {labelSet.version})</summary>
      <div className="row" style={{ alignItems: 'flex-end', marginTop: '0.5rem' }}>
        <div className="field">
          <label htmlFor="ls-verdicts">Verdicts (keys 1-9, in this order; pass and fail required)</label>
          <input id="ls-verdicts" value={verdicts} onChange={(e) => setVerdicts(e.target.value)} size={30} />
        </div>
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="ls-categories">Categories</label>
          <input id="ls-categories" value={categories} onChange={(e) => setCategories(e.target.value)} style={{ width: '100%' }} />
        </div>
        <button
          type="button"
          disabled={pending}
          onClick={() =>
            start(async () => {
              const res = await saveLabelSetAction({ verdicts: list(verdicts), categories: list(categories) });
              setMessage(res.ok ? `Stored version ${res.data.version}.` : Object.entries(res.fieldErrors ?? {}).map(([f, m]) => `${f}: ${m.join(', ')}`).join('; ') || res.error);
              if (res.ok) router.refresh();
            })
          }
        >
          Save as a new version
        </button>
      </div>
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
    </details>
  );
}

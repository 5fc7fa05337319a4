'use client';
/**
 * "Add to a golden set": a case drafted from this run (lib/eval/golden-sets.ts draftGoldenCase) to edit —
 * from the run's golden case's expectations when it came from one; from a failed run only the question,
 * with a warning; otherwise the run's answer, its calls without error and the facts it stated — then
 * stored as a new version of the set.
 */
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { addGoldenCaseAction } from '@/lib/actions/add-golden-case';
import { safeJsonParse } from '@/lib/harness/json';

export interface GoldenDraft {
  id: string;
  category: string;
  query: string;
  referenceAnswer: string;
  expectedTools: { name: string; args: Record<string, unknown> }[];
  expectedFacts: string[];
}

export function AddGoldenCase({
  runId,
  draft,
  sets,
  basis,
  warning,
}: {
  runId: string;
  draft: GoldenDraft;
  sets: string[];
  basis: 'golden_case' | 'completed_run' | 'failed_run';
  warning: string | null;
}) {
  const [setName, setSetName] = useState(sets[0] ?? 'from-runs');
  const [id, setId] = useState(draft.id);
  const [category, setCategory] = useState(draft.category);
  const [query, setQuery] = useState(draft.query);
  const [answer, setAnswer] = useState(draft.referenceAnswer);
  const [tools, setTools] = useState(JSON.stringify(draft.expectedTools, null, 1));
  const [facts, setFacts] = useState(draft.expectedFacts.join('\n'));
  const [result, setResult] = useState<{ ok: true; name: string; version: number; cases: number } | { ok: false; error: string } | null>(null);
  const [pending, start] = useTransition();

  const submit = () => {
    const parsedTools = safeJsonParse(tools);
    if (!parsedTools.ok || !Array.isArray(parsedTools.value)) {
      setResult({ ok: false, error: 'Expected tool calls: not a JSON array of {"name", "args"}.' });
      return;
    }
    start(async () => {
      const res = await addGoldenCaseAction({
        runId,
        setName,
        id,
        category,
        query,
        referenceAnswer: answer,
        expectedTools: parsedTools.value as GoldenDraft['expectedTools'] as never,
        expectedFacts: facts.split('\n').map((f) => f.trim()).filter(Boolean),
      });
      setResult(
        res.ok
          ? { ok: true, name: res.data.name, version: res.data.version, cases: res.data.caseCount }
          : { ok: false, error: Object.entries(res.fieldErrors ?? {}).map(([f, m]) => `${f}: ${m.join(', ')}`).join('; ') || res.error },
      );
    });
  };

  return (
    <details className="panel" data-testid="add-golden-case">
      <summary>Add to a golden set</summary>
      <div className="stack" style={{ marginTop: '0.5rem' }}>
        {warning ? (
          <p className={`alert ${basis === 'failed_run' ? 'warn' : 'info'}`} data-testid="add-golden-warning" data-basis={basis}>
            {warning}
          </p>
        ) : null}
        <div className="row">
          <div className="field">
            <label htmlFor="gc-set">Golden set</label>
            <input id="gc-set" list="gc-sets" value={setName} onChange={(e) => setSetName(e.target.value)} size={18} />
            <datalist id="gc-sets">
              {sets.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </div>
          <div className="field">
            <label htmlFor="gc-id">Case id</label>
            <input id="gc-id" value={id} onChange={(e) => setId(e.target.value)} size={16} />
          </div>
          <div className="field">
            <label htmlFor="gc-category">Category</label>
            <input id="gc-category" value={category} onChange={(e) => setCategory(e.target.value)} size={16} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="gc-query">Question</label>
          <textarea id="gc-query" value={query} onChange={(e) => setQuery(e.target.value)} rows={2} />
        </div>
        <div className="field">
          <label htmlFor="gc-answer">
            {basis === 'golden_case' ? 'Expected answer (the golden case’s)' : basis === 'failed_run' ? 'Expected answer (write it: the run gave none worth keeping)' : 'Expected answer (edited from the run’s)'}
          </label>
          <textarea id="gc-answer" value={answer} onChange={(e) => setAnswer(e.target.value)} rows={4} />
        </div>
        <div className="field">
          <label htmlFor="gc-tools">Expected tool calls (JSON, in order)</label>
          <textarea id="gc-tools" className="mono" value={tools} onChange={(e) => setTools(e.target.value)} rows={4} />
        </div>
        <div className="field">
          <label htmlFor="gc-facts">Expected facts (one per line)</label>
          <textarea id="gc-facts" value={facts} onChange={(e) => setFacts(e.target.value)} rows={3} />
        </div>
        <div className="row">
          <button type="button" className="primary" disabled={pending} onClick={submit} data-testid="add-golden-submit">
            {pending ? 'Adding…' : 'Add the case'}
          </button>
          {result?.ok ? (
            <span role="status" data-testid="add-golden-result">
              Added to {result.name} (version {result.version}, {result.cases} case{result.cases === 1 ? '' : 's'}). <Link href="/golden-sets">Golden sets</Link>
            </span>
          ) : result ? (
            <span className="alert error" role="alert">
              {result.error}
            </span>
          ) : null}
        </div>
      </div>
    </details>
  );
}

'use client';
/**
 * Runs one golden case or a free query under chosen settings, then opens its replay. With the
 * policy attached the run is governed (it runs as the signed-in operator and may pause for approval).
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { startRunAction } from '@/lib/actions/start-run';
import { runGovernedAction } from '@/lib/actions/run-governed';
import type { DatasetOption } from '@/lib/runs/datasets';
import { DEFAULT_SETTINGS, RunSettingsFields, type SettingsValue, type ToolServerOption } from '@/components/run-settings-fields';
import type { ModelProvider } from '@/lib/harness/config';

export function RunLauncher({
  datasets,
  defaultOpen = false,
  toolServers = [],
  modelProviders = [],
}: {
  datasets: DatasetOption[];
  defaultOpen?: boolean;
  toolServers?: ToolServerOption[];
  /** Providers the server holds credentials for (the picker lists these besides fake). */
  modelProviders?: readonly ModelProvider[];
}) {
  const router = useRouter();
  const [settings, setSettings] = useState<SettingsValue>(DEFAULT_SETTINGS);
  const [mode, setMode] = useState<'case' | 'query'>('case');
  const dataset = datasets.find((d) => d.id === settings.datasetId);
  const [caseId, setCaseId] = useState(dataset?.cases[0]?.id ?? '');
  const [query, setQuery] = useState('');
  const [tags, setTags] = useState('');
  const [governed, setGoverned] = useState(false);
  const [error, setError] = useState<{ error: string; fieldErrors?: Record<string, string[]> } | null>(null);
  const [pending, start] = useTransition();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    start(async () => {
      const input = { ...settings, ...(mode === 'case' ? { caseId } : { query }), tags };
      // An ungoverned run opens its replay as soon as it is stored; a live one is then followed as it runs.
      const res = governed ? await runGovernedAction(input) : await startRunAction(input);
      if (res.ok) router.push(`/runs/${res.data.runId}`);
      else setError(res);
    });
  };

  return (
    <details className="panel" open={defaultOpen}>
      <summary>
        <strong>Run a case or a query</strong>
      </summary>
      <form onSubmit={submit} className="stack" style={{ marginTop: '0.75rem' }} aria-label="Run a case or a query">
        <RunSettingsFields value={settings} onChange={setSettings} datasets={datasets} fieldErrors={error?.fieldErrors} toolServers={toolServers} modelProviders={modelProviders} />
        <div className="row" role="radiogroup" aria-label="What to run">
          <label className="check">
            <input type="radio" name="mode" checked={mode === 'case'} onChange={() => setMode('case')} /> Golden case
          </label>
          <label className="check">
            <input type="radio" name="mode" checked={mode === 'query'} onChange={() => setMode('query')} /> My own query
          </label>
        </div>
        {mode === 'case' ? (
          <div className="field">
            <label htmlFor="case">Golden case</label>
            <select id="case" value={caseId} onChange={(e) => setCaseId(e.target.value)}>
              {(dataset?.cases ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id} · {c.category} · {c.query.slice(0, 80)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div className="field">
            <label htmlFor="query">Query</label>
            <input id="query" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="e.g. Is SKU-2005 running low?" maxLength={2000} />
          </div>
        )}
        <div className="field">
          <label htmlFor="run-tags">Tags</label>
          <input id="run-tags" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="e.g. production, checkout-v2" maxLength={2000} aria-describedby="run-tags-help" aria-invalid={error?.fieldErrors?.tags ? true : undefined} />
          <span id="run-tags-help" className="muted small">
            comma-separated; the runs list, evaluators and trends filter and group by them
          </span>
        </div>
        <label className="check">
          <input type="checkbox" name="governed" checked={governed} onChange={(e) => setGoverned(e.target.checked)} /> Attach the governance
          policy (config/policy.json): runs as you, writes are journaled, and a restock above the auto-approve limit waits for a reviewer
        </label>
        {error ? (
          <div className="alert error" role="alert">
            {error.error}
            {Object.entries(error.fieldErrors ?? {}).map(([k, v]) => (
              <div key={k} className="small">
                {k}: {v.join('; ')}
              </div>
            ))}
          </div>
        ) : null}
        <div>
          <button type="submit" className="primary" disabled={pending}>
            {pending ? 'Running…' : 'Run and replay'}
          </button>
        </div>
      </form>
    </details>
  );
}

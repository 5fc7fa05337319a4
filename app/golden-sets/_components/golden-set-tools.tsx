'use client';
/** Run an eval of a stored golden set on a dataset (a suite, followed here), and import a golden JSONL file as a set's next version. */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { importGoldenSetAction } from '@/lib/actions/import-golden-set';
import { startSuiteAction } from '@/lib/actions/start-suite';
import { SuiteProgress } from '@/components/suite-progress';
import { useSuiteRun } from '@/components/use-suite-run';

export function GoldenSetTools({ sets, datasets }: { sets: string[]; datasets: { id: string; name: string }[] }) {
  const router = useRouter();
  const [set, setSet] = useState(sets[0] ?? '');
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? '');
  const [suiteId, setSuiteId] = useState<string | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [jsonl, setJsonl] = useState('');
  const [importResult, setImportResult] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const suite = useSuiteRun(suiteId);

  return (
    <div className="grid-2">
      <section className="panel" aria-label="Run an eval on a golden set">
        <h2 style={{ marginTop: 0 }}>Run an eval</h2>
        {sets.length === 0 ? (
          <p className="muted small">No set to run yet.</p>
        ) : (
          <div className="stack">
            <div className="row">
              <div className="field">
                <label htmlFor="gs-set">Golden set</label>
                <select id="gs-set" value={set} onChange={(e) => setSet(e.target.value)}>
                  {sets.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="gs-dataset">Dataset</label>
                <select id="gs-dataset" value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
                  {datasets.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                className="primary"
                disabled={pending || !set || !datasetId}
                data-testid="run-golden-set"
                onClick={() =>
                  start(async () => {
                    setRunError(null);
                    const res = await startSuiteAction({ datasetId, goldenSet: set });
                    if (res.ok) setSuiteId(res.data.suiteRunId);
                    else setRunError(res.error);
                  })
                }
              >
                Run eval
              </button>
            </div>
            {runError ? (
              <p className="alert error" role="alert">
                {runError}
              </p>
            ) : null}
            {suiteId && suite.data ? (
              <div data-testid="golden-suite">
                <SuiteProgress suite={suite.data.suite} progress={suite.data.progress} />
                <Link href={`/runs?suite=${suiteId}`}>The suite&apos;s runs</Link>
              </div>
            ) : null}
          </div>
        )}
      </section>
      <section className="panel" aria-label="Import a golden set">
        <h2 style={{ marginTop: 0 }}>Import golden JSONL</h2>
        <div className="stack">
          <div className="field">
            <label htmlFor="gs-name">Set name (new, or a new version of an existing one)</label>
            <input id="gs-name" value={name} onChange={(e) => setName(e.target.value)} size={20} />
          </div>
          <div className="field">
            <label htmlFor="gs-file">File</label>
            <input id="gs-file" type="file" accept=".jsonl,.json,.ndjson,text/plain" onChange={async (e) => setJsonl((await e.target.files?.[0]?.text()) ?? '')} />
          </div>
          <div className="field">
            <label htmlFor="gs-jsonl">…or paste it</label>
            <textarea id="gs-jsonl" className="mono" rows={4} value={jsonl} onChange={(e) => setJsonl(e.target.value)} />
          </div>
          <button
            type="button"
            disabled={pending}
            onClick={() =>
              start(async () => {
                const res = await importGoldenSetAction({ name, jsonl });
                setImportResult(res.ok ? `Stored ${res.data.name} version ${res.data.version} (${res.data.caseCount} cases).` : Object.entries(res.fieldErrors ?? {}).map(([f, m]) => `${f}: ${m.join(', ')}`).join('; ') || res.error);
                if (res.ok) router.refresh();
              })
            }
          >
            Import
          </button>
          {importResult ? (
            <p className="small" role="status">
              {importResult}
            </p>
          ) : null}
        </div>
      </section>
    </div>
  );
}

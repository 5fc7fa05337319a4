'use client';
/** Run an eval of a stored golden set on a dataset (a suite, followed here), and import a golden JSONL file as a set's next version. */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { importGoldenSetAction } from '@/lib/actions/import-golden-set';
import { startSuiteAction } from '@/lib/actions/start-suite';
import { SuiteProgress } from '@/components/suite-progress';
import { useSuiteRun } from '@/components/use-suite-run';
import { ModelPicker } from '@/components/model-picker';
import { DEFAULT_EPOCHS, EpochsFields, epochsInput, type EpochsValue } from '@/components/epochs-fields';
import { FAKE_MODEL, type ModelProvider } from '@/lib/harness/names';
import { epochsText } from '@/lib/charts/matrix-view';

/**
 * `modelProviders`: the providers the server holds credentials for (the picker offers them besides
 * the fake models). The eval goes through the same action and run service as instructor mode's suites
 * (startSuiteAction), with the same epochs and seed fields.
 */
export function GoldenSetTools({ sets, datasets, modelProviders = [] }: { sets: string[]; datasets: { id: string; name: string }[]; modelProviders?: readonly ModelProvider[] }) {
  const router = useRouter();
  const [set, setSet] = useState(sets[0] ?? '');
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? '');
  const [suiteId, setSuiteId] = useState<string | null>(null);
  const [runError, setRunError] = useState<{ error: string; fieldErrors?: Record<string, string[]> } | null>(null);
  const [model, setModel] = useState<string>(FAKE_MODEL);
  const [epochs, setEpochs] = useState<EpochsValue>(DEFAULT_EPOCHS);
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
            </div>
            <ModelPicker value={model} onChange={setModel} providers={modelProviders} idPrefix="gs-model" noisy error={runError?.fieldErrors?.model} />
            <EpochsFields value={epochs} onChange={setEpochs} model={model} idPrefix="gs" fieldErrors={runError?.fieldErrors} />
            <div className="row">
              <button
                type="button"
                className="primary"
                disabled={pending || !set || !datasetId}
                data-testid="run-golden-set"
                onClick={() =>
                  start(async () => {
                    setRunError(null);
                    const res = await startSuiteAction({ datasetId, goldenSet: set, model, ...epochsInput(epochs, model) });
                    if (res.ok) setSuiteId(res.data.suiteRunId);
                    else setRunError(res);
                  })
                }
              >
                Run eval
              </button>
            </div>
            {runError ? (
              <p className="alert error" role="alert">
                {runError.error}
              </p>
            ) : null}
            {suiteId && suite.data ? (
              <div data-testid="golden-suite">
                <SuiteProgress suite={suite.data.suite} progress={suite.data.progress} />
                <p className="small muted" data-testid="golden-suite-epochs">
                  {epochsText(suite.data.suite.epochs)} per case
                </p>
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

'use client';
/** Starting a matrix run, following its progress, and showing (or comparing) finished ones. */
import { GoldenSetField } from '@/components/golden-set-field';
import { RoleNote } from '@/components/role-note';
import { useRouter } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';
import { startMatrixAction } from '@/lib/actions/start-matrix';
import { estimateMatrixAction } from '@/lib/actions/estimate-matrix';
import { isOfflineModel } from '@/lib/harness/config';
import { cancelSuiteAction } from '@/lib/actions/cancel-suite';
import type { DatasetOption } from '@/lib/runs/datasets';
import type { SuiteRunListItem } from '@/lib/db/runs/types';
import { DEFAULT_SETTINGS, RunSettingsFields, type SettingsValue, type ToolServerOption } from '@/components/run-settings-fields';
import { SuiteProgress } from '@/components/suite-progress';
import { useSuiteRun, type SuitePoll } from '@/components/use-suite-run';
import { useSuiteStatistics } from '@/components/use-suite-statistics';
import { DEFAULT_EPOCHS, EpochsFields, epochsInput, type EpochsValue } from '@/components/epochs-fields';
import { MatrixResults, preloadMatrixChart } from './matrix-results';
import { epochsText, harnessSummary, MATRIX_SETTINGS, suiteOptionLabel, type MatrixCell } from '@/lib/charts/matrix-view';
import { MatrixComparison } from './matrix-comparison';
import type { ModelProvider } from '@/lib/harness/config';
import Link from 'next/link';
import { formatCost } from '@/lib/format/cost';
import { FIRST_RUN_RANGE } from '@/lib/format/suite-estimate';


/** "305 runs: every golden case under 5 settings", times the epochs when they are a valid count. */
function runsText(cases: number, epochsText: string): string {
  const n = /^\s*\d+\s*$/.test(epochsText) ? Number(epochsText) : 1;
  const epochs = n >= 1 ? n : 1;
  return `${cases * MATRIX_SETTINGS.length * epochs} runs: every golden case under ${MATRIX_SETTINGS.length} settings${epochs > 1 ? `, ${epochs} times each` : ''}.`;
}

const label = suiteOptionLabel;

export function MatrixClient({
  datasets,
  suites,
  selectedId,
  compareId,
  initialCell = null,
  initialPoll = null,
  runBlocked = null,
  toolServers = [],
  modelProviders = [],
  goldenSets = [],
}: {
  datasets: DatasetOption[];
  suites: SuiteRunListItem[];
  selectedId: string | null;
  compareId: string | null;
  /** The cell whose moved cases the page opens with (`?cell=`). */
  initialCell?: MatrixCell | null;
  /** The server's read of the selected suite while it works (progress on the first paint). */
  initialPoll?: SuitePoll | null;
  /** Why the caller cannot run the matrix (a missing role), or null. */
  runBlocked?: string | null;
  /** Configured tool servers (config/mcp-servers.json) the matrix may run against, by id. */
  toolServers?: ToolServerOption[];
  /** Providers the server holds credentials for (the model picker lists these besides fake). */
  modelProviders?: readonly ModelProvider[];
  /** The tenant's stored golden sets: the matrix can run one instead of the dataset's bundled file. */
  goldenSets?: readonly string[];
}) {
  const [goldenSet, setGoldenSet] = useState('');
  const router = useRouter();
  const [settings, setSettings] = useState<SettingsValue>(DEFAULT_SETTINGS);
  const [epochs, setEpochs] = useState<EpochsValue>(DEFAULT_EPOCHS);
  // A live model's matrix is estimated first and started only once confirmed (its text; null: not asked yet).
  const [estimate, setEstimate] = useState<string | null>(null);
  const [error, setError] = useState<{ error: string; fieldErrors?: Record<string, string[]> } | null>(null);
  const [pending, start] = useTransition();
  const poll = useSuiteRun(selectedId, initialPoll);
  const [cancelling, startCancel] = useTransition();
  const cancel = (id: string) =>
    startCancel(async () => {
      const r = await cancelSuiteAction({ id });
      if (!r.ok) setError({ error: r.error });
      await poll.refetch();
    });
  const suite = poll.data?.suite;
  // While a suite works, its finished table's chart code loads in the background (not when the table is drawn).
  const working = suite?.status === 'queued' || suite?.status === 'running';
  useEffect(() => {
    if (working) preloadMatrixChart();
  }, [working]);
  // Intervals and significance once the matrix is done (a finished suite's figures never change).
  const stats = useSuiteStatistics(selectedId, { enabled: suite?.status === 'done' });
  // The picker's list was rendered by the server: the suite it shows takes its polled status (the whole
  // page is not rendered again when the suite ends).
  const listed = suite ? suites.map((s) => (s.id === suite.id && s.status !== suite.status ? { ...s, status: suite.status } : s)) : suites;

  const { weaknesses: _ignored, ...rest } = settings;
  const input = { ...rest, goldenSet, ...epochsInput(epochs, settings.model) };
  const live = settings.model !== undefined && !isOfflineModel(settings.model);
  const run = () => {
    setError(null);
    start(async () => {
      if (live && estimate === null) {
        // Before a live matrix: what it will cost and how long it takes, then a confirmation.
        const est = await estimateMatrixAction(input);
        if (!est.ok) return setError(est);
        setEstimate(est.data.text ?? 'No estimate: this model costs nothing.');
        return;
      }
      const res = await startMatrixAction(input);
      setEstimate(null);
      if (res.ok) router.push(`/matrix?suite=${res.data.suiteRunId}`);
      else setError(res);
    });
  };
  const changeSettings = (v: SettingsValue) => (setEstimate(null), setSettings(v));
  const changeEpochs = (v: EpochsValue) => (setEstimate(null), setEpochs(v));

  const go = (suiteId: string, other: string | null) =>
    router.push(`/matrix?suite=${encodeURIComponent(suiteId)}${other ? `&compare=${encodeURIComponent(other)}` : ''}`);

  return (
    <>
      <section className="panel" aria-label="Run the matrix">
        <h2>Run the matrix</h2>
        <RunSettingsFields value={settings} onChange={changeSettings} datasets={datasets} showWeaknesses={false} toolServers={toolServers} modelProviders={modelProviders} fieldErrors={error?.fieldErrors} noisyModel />
        <EpochsFields value={epochs} onChange={changeEpochs} model={settings.model} idPrefix="m" fieldErrors={error?.fieldErrors} />
        <GoldenSetField id="m-golden-set" label="Cases" sets={goldenSets} value={goldenSet} onChange={setGoldenSet} style={{ marginTop: '0.5rem' }} />
        <div className="row" style={{ marginTop: '0.75rem' }}>
          <button type="button" className="primary" onClick={run} disabled={pending || runBlocked !== null} aria-describedby={runBlocked ? 'run-matrix-note' : undefined} data-testid="run-matrix">
            {pending ? (live && estimate === null ? 'Estimating…' : 'Starting…') : estimate !== null ? 'Start it: I accept the cost' : live ? 'Estimate the cost, then run' : 'Run the matrix'}
          </button>
          {estimate !== null ? (
            <button type="button" className="secondary" onClick={() => setEstimate(null)} disabled={pending}>
              Not now
            </button>
          ) : null}
          <span className="muted small">
            {runsText((datasets.find((d) => d.id === settings.datasetId)?.cases.length ?? 0), epochs.epochs)}
          </span>
        </div>
        {estimate !== null ? (
          <div className="alert info small" role="status" data-testid="matrix-estimate">
            <strong>Before this live matrix:</strong>
            <pre style={{ whiteSpace: 'pre-wrap', margin: '0.25rem 0 0' }}>{estimate}</pre>
          </div>
        ) : null}
        {runBlocked ? <RoleNote id="run-matrix-note" text={runBlocked} /> : null}
        {error ? <p className="alert error">{error.error}</p> : null}
      </section>

      {listed.length > 0 ? (
        <section className="panel row" aria-label="Pick a matrix run">
          <div className="field">
            <label htmlFor="pick-suite">Matrix run</label>
            <select id="pick-suite" value={selectedId ?? ''} onChange={(e) => go(e.target.value, compareId)}>
              {selectedId && !listed.some((s) => s.id === selectedId) ? <option value={selectedId}>{selectedId}</option> : null}
              {listed.map((s) => (
                <option key={s.id} value={s.id}>
                  {label(s)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="pick-compare">Compare with an earlier run</label>
            <select id="pick-compare" value={compareId ?? ''} onChange={(e) => selectedId && go(selectedId, e.target.value || null)}>
              <option value="">(no comparison)</option>
              {listed
                .filter((s) => s.id !== selectedId && s.status === 'done')
                .map((s) => (
                  <option key={s.id} value={s.id}>
                    {label(s)}
                  </option>
                ))}
            </select>
          </div>
        </section>
      ) : null}

      {selectedId === null ? (
        <p className="panel">
          No matrix has been run yet. Press “Run the matrix” above: on the bundled dataset it takes {FIRST_RUN_RANGE}, and this page shows
          each run as it is stored, with the time left.
        </p>
      ) : poll.isError ? (
        <p className="alert error">{poll.error.message}</p>
      ) : !suite ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          {suite.status !== 'done' ? (
            <section className="panel" aria-label="Progress">
              <h2>Progress</h2>
              <SuiteProgress suite={suite} progress={poll.data?.progress} timing={poll.data ? { previousMs: poll.data.previousMs, elapsedMs: poll.data.elapsedMs } : null} />
              {(suite.status === 'queued' || suite.status === 'running') && !runBlocked ? (
                <button type="button" className="secondary" disabled={cancelling} onClick={() => cancel(suite.id)}>
                  {cancelling ? 'Cancelling…' : 'Cancel the matrix'}
                </button>
              ) : null}
              {poll.data?.running.length ? (
                <ul className="small" data-testid="suite-running" aria-label="Cases running now">
                  {poll.data.running.map((r) => (
                    <li key={r.runId}>
                      <Link href={`/runs/${r.runId}`}>{r.caseId ?? r.runId.slice(-8)}</Link> under {r.setting}: running, {r.steps} step{r.steps === 1 ? '' : 's'} so far
                    </li>
                  ))}
                </ul>
              ) : null}
            </section>
          ) : null}
          {/* The comparison asked for comes first, not below a page of charts. */}
          {compareId && suite.status === 'done' ? <MatrixComparison current={suite} otherId={compareId} /> : null}
          {/* While it works, the table fills in from the cases stored so far (the finished suite's own figures replace it). */}
          {suite.settings.length === 0 && (poll.data?.partial.length ?? 0) > 0 ? (
            <MatrixResults suite={{ ...suite, settings: poll.data!.partial }} partialCases={Object.fromEntries(poll.data!.partial.map((p) => [p.setting, p.cases]))} casesPerSetting={Math.round(suite.total / MATRIX_SETTINGS.length)} />
          ) : null}
          {suite.settings.length > 0 ? (
            <>
              <p className="small muted" data-testid="matrix-harness">
                Run on {suite.datasetName} · {harnessSummary(suite.config)} · {epochsText(suite.epochs)} per case
                {poll.data ? (
                  <>
                    {' '}
                    · <span data-testid="suite-cost">cost {formatCost(poll.data.cost.usd, poll.data.cost.known, poll.data.cost.unreportedCalls)}</span> (
                    {Object.entries(poll.data.cost.bySetting)
                      .map(([setting, c]) => `${setting} ${formatCost(c.usd, c.known, c.unreportedCalls)}`)
                      .join(', ')}
                    )
                  </>
                ) : null}
              </p>
              <MatrixResults suite={suite} initialCell={initialCell} stats={stats.data ?? null} />
            </>
          ) : null}
        </>
      )}
    </>
  );
}

'use client';
/** Toggles, one-case and whole-suite runs against a clean baseline, and the metric that moved with the cases that show why. */
import { GoldenSetField } from '@/components/golden-set-field';
import { useState, useTransition } from 'react';
import { runOneAction } from '@/lib/actions/run-one';
import { runGovernedAction } from '@/lib/actions/run-governed';
import { startSuiteAction } from '@/lib/actions/start-suite';
import type { DatasetOption } from '@/lib/runs/datasets';
import type { RunOneResult } from '@/lib/runs/summary';
import { FAKE_MODEL, type ModelProvider, type RunGuardName, type WeaknessFlag } from '@/lib/harness/config';
import { ModelPicker } from '@/components/model-picker';
import { DEFAULT_EPOCHS, EpochsFields, epochsInput, type EpochsValue } from '@/components/epochs-fields';
import { CaseResult } from './case-result';
import { SuiteResult } from './suite-result';
import { RoleNote } from '@/components/role-note';
import type { MatrixSuggestions } from '../load-suggestions';
import { CaseMoveNote, FlagSuggestions } from './flag-suggestions';
import { GuardrailSuggestions } from './guardrail-suggestions';
import { GUARDRAIL_SWITCHES, guardrailsOfSwitches } from '@/lib/charts/guardrail-switches';
import { switchesOf, WEAKNESS_ORDER, WEAKNESSES } from '@/lib/stockroom/browser';

/** The flags a kept-on repeated-call guard overrides (the weakness table's, not a copy). */
const GUARD_OFF_FLAGS = WEAKNESS_ORDER.filter((f) => WEAKNESSES[f].loopOff.includes('repeatedCallGuard'));


/**
 * `runBlocked` says why the caller cannot run anything (a missing role), or is null; `suggestions`
 * are, per dataset id, the cases each flag moves in the tenant's newest matrix (null: none has run).
 */
export function Instructor({
  datasets,
  runBlocked = null,
  suggestions = {},
  modelProviders = [],
  goldenSets = [],
}: {
  datasets: DatasetOption[];
  runBlocked?: string | null;
  suggestions?: Record<string, MatrixSuggestions | null>;
  /** Providers the server holds credentials for (the model picker lists these besides fake). */
  modelProviders?: readonly ModelProvider[];
  /** The tenant's stored golden sets: the suite can run one instead of the dataset's bundled file. */
  goldenSets?: readonly string[];
}) {
  const [goldenSet, setGoldenSet] = useState('');
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? 'bundled');
  const dataset = datasets.find((d) => d.id === datasetId);
  const [flags, setFlags] = useState<WeaknessFlag[]>([]);
  const [guard, setGuard] = useState(false);
  // The repeated-call guard kept on under naive_retry: the flag's environment part alone.
  const [keepRepeat, setKeepRepeat] = useState(false);
  const [rails, setRails] = useState<string[]>([]);
  // Both runs under the governance policy: once a run reads planted text (taint), its writes wait for a person.
  const [governed, setGoverned] = useState(false);
  const [model, setModel] = useState<string>(FAKE_MODEL);
  const [epochs, setEpochs] = useState<EpochsValue>(DEFAULT_EPOCHS);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]> | undefined>(undefined);
  const [caseId, setCaseId] = useState(dataset?.cases[0]?.id ?? '');
  // Each result keeps the switches it was run under: after a toggle the page must not present it as the new switch's.
  const [caseRuns, setCaseRuns] = useState<{ baseline: RunOneResult; current: RunOneResult; label: string; deterministic: boolean } | null>(null);
  const [suites, setSuites] = useState<{ baseline: string; current: string; label: string; deterministic: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const guards: RunGuardName[] = [...(guard ? (['grounded_write'] as const) : []), ...(keepRepeat ? (['repeated_call'] as const) : [])];
  const railLabels = GUARDRAIL_SWITCHES.filter((r) => rails.includes(r.id)).map((r) => r.label);
  const guardLabels = guards.map((g) => (g === 'repeated_call' ? 'repeated-call guard kept on' : g));
  const sent = epochsInput(epochs, model);
  const label =
    (flags.length || guards.length || rails.length ? [...flags, ...guardLabels, ...railLabels].join(' + ') : 'no weakness') +
    (governed ? ', governed (taint on)' : '') +
    (model === FAKE_MODEL ? '' : ` on ${model}${sent.seed !== undefined ? ` (seed ${sent.seed.trim()})` : ''}`) +
    (/^\s*\d+\s*$/.test(epochs.epochs) && Number(epochs.epochs) > 1 ? `, ${Number(epochs.epochs)} epochs` : '');
  // The baseline runs with no guardrails at all (`{}`: not even the tenant's default), so the difference is the switches.
  const guardrails = guardrailsOfSwitches(rails);

  const shown = caseRuns ?? suites;
  const pick = (flag: WeaknessFlag, id: string) => {
    setFlags([flag]);
    setGuard(false);
    setKeepRepeat(false);
    setRails([]);
    setCaseId(id);
  };
  const pickGuardrail = (rail: string, flag: WeaknessFlag, id: string) => {
    setFlags([flag]);
    setGuard(false);
    setKeepRepeat(false);
    setRails([rail]);
    setCaseId(id);
  };
  const toggleRail = (r: string) => setRails((xs) => (xs.includes(r) ? xs.filter((x) => x !== r) : [...xs, r]));
  const toggleFlag = (f: WeaknessFlag) => setFlags((xs) => (xs.includes(f) ? xs.filter((x) => x !== f) : [...xs, f].sort()));

  const runCase = () => {
    const ranLabel = label;
    start(async () => {
      setError(null);
      setSuites(null);
      setFieldErrors(undefined);
      const seed = sent.seed !== undefined ? { seed: sent.seed } : {};
      const run = governed ? runGovernedAction : runOneAction;
      const [baseline, current] = await Promise.all([
        run({ datasetId, caseId, model, guardrails: {}, ...seed }),
        run({ datasetId, caseId, weaknesses: flags, guards, model, guardrails, ...seed }),
      ]);
      if (!baseline.ok) return (setError(baseline.error), setFieldErrors(baseline.fieldErrors));
      if (!current.ok) return (setError(current.error), setFieldErrors(current.fieldErrors));
      setCaseRuns({ baseline: baseline.data, current: current.data, label: ranLabel, deterministic: model === FAKE_MODEL });
    });
  };

  const runSuite = () => {
    const ranLabel = label;
    start(async () => {
      setError(null);
      setCaseRuns(null);
      setFieldErrors(undefined);
      // Both suites with the same epochs and seed: the noisy model draws the same stream per case and epoch, so the pairs compare like with like.
      const baseline = await startSuiteAction({ datasetId, model, guardrails: {}, goldenSet, ...sent });
      if (!baseline.ok) return (setError(baseline.error), setFieldErrors(baseline.fieldErrors));
      const current = await startSuiteAction({ datasetId, weaknesses: flags, guards, model, guardrails, goldenSet, ...sent });
      if (!current.ok) return (setError(current.error), setFieldErrors(current.fieldErrors));
      setSuites({ baseline: baseline.data.suiteRunId, current: current.data.suiteRunId, label: ranLabel, deterministic: model === FAKE_MODEL });
    });
  };

  return (
    <>
      <section className="panel" aria-label="Harness switches">
        <h2>1. Choose the harness</h2>
        <div className="row">
          {WEAKNESS_ORDER.map((f) => (
            <button key={f} type="button" className="toggle" aria-pressed={flags.includes(f)} onClick={() => toggleFlag(f)} data-flag={f} title={WEAKNESSES[f].description}>
              {f} <span className="small">({WEAKNESSES[f].help})</span>
            </button>
          ))}
          <button type="button" className="toggle" aria-pressed={guard} onClick={() => setGuard((g) => !g)} data-flag="grounded_write">
            grounded_write guard <span className="small">(blocks ungrounded restocks)</span>
          </button>
          <button type="button" className="toggle" aria-pressed={keepRepeat} onClick={() => setKeepRepeat((k) => !k)} data-flag="repeated_call">
            repeated-call guard kept on <span className="small">(even under {GUARD_OFF_FLAGS.join(', ')})</span>
          </button>
          <button type="button" className="toggle" aria-pressed={governed} onClick={() => setGoverned((g) => !g)} data-flag="governed" title="Run the case under the governance policy: a run that read planted instructions keeps no write privilege of its own">
            governed, taint on <span className="small">(after planted text is read, writes wait for a person)</span>
          </button>
        </div>
        <details className="flag-parts" data-testid="flag-parts" open>
          <summary>What each flag changes (the course&apos;s flag table, SPEC §2.2)</summary>
          <dl>
            {WEAKNESS_ORDER.map((f) => {
              const parts = WEAKNESSES[f];
              return (
                <div key={f} data-flag-parts={f}>
                  <dt className="mono">{f}</dt>
                  <dd>
                    <p className="small">
                      {parts.description} <span className="muted">Switches: {switchesOf(f)}.</span>
                    </p>
                    <ul className="small">
                      {parts.environment ? (
                        <li>
                          <strong>Environment:</strong> {parts.environment}
                        </li>
                      ) : null}
                      {parts.model ? (
                        <li>
                          <strong>Scripted model:</strong> {parts.model}
                        </li>
                      ) : null}
                      <li>
                        <strong>Harness:</strong> {parts.harness ?? 'unchanged'}
                      </li>
                    </ul>
                    {parts.alone ? (
                      <button
                        type="button"
                        className="small"
                        data-testid={`flag-alone-${f}`}
                        onClick={() => {
                          setFlags([f]);
                          setGuard(parts.alone!.guards.includes('grounded_write'));
                          setKeepRepeat(parts.alone!.guards.includes('repeated_call'));
                        }}
                      >
                        Show the environment&apos;s part alone: {parts.alone.label} ({parts.alone.expect})
                      </button>
                    ) : null}
                  </dd>
                </div>
              );
            })}
          </dl>
        </details>
        <div className="row" role="group" aria-label="Guardrails">
          <span className="small muted">Guardrails:</span>
          {GUARDRAIL_SWITCHES.map((r) => (
            <button key={r.id} type="button" className="toggle" aria-pressed={rails.includes(r.id)} onClick={() => toggleRail(r.id)} data-guardrail={r.id}>
              {r.label} <span className="small">({r.help})</span>
            </button>
          ))}
        </div>
      </section>
      <section className="panel" aria-label="What to run">
        <h2>2. Run it</h2>
        <ModelPicker value={model} onChange={setModel} providers={modelProviders} idPrefix="i-model" noisy error={fieldErrors?.model} />
        <EpochsFields value={epochs} onChange={setEpochs} model={model} idPrefix="i" fieldErrors={fieldErrors} />
        <div className="row" style={{ alignItems: 'flex-end' }}>
          {datasets.length > 1 ? (
            <div className="field">
              <label htmlFor="i-dataset">Dataset</label>
              <select id="i-dataset" value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
                {datasets.map((d) => (
                  <option key={d.id} value={d.id} disabled={d.problem !== null}>
                    {d.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <GoldenSetField id="i-golden-set" label="Suite cases" sets={goldenSets} value={goldenSet} onChange={setGoldenSet} />
          <div className="field" style={{ flex: 1, minWidth: '18rem' }}>
            <label htmlFor="i-case">Golden case</label>
            <select id="i-case" value={caseId} onChange={(e) => setCaseId(e.target.value)}>
              {(dataset?.cases ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id} · {c.category} · {c.query.slice(0, 70)}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="primary" onClick={runCase} disabled={pending || !caseId || runBlocked !== null} aria-describedby={runBlocked ? 'instructor-role-note' : undefined} data-testid="instructor-run-case">
            Run this case
          </button>
          <button
            type="button"
            className="primary"
            onClick={runSuite}
            disabled={pending || runBlocked !== null || governed}
            aria-describedby={runBlocked ? 'instructor-role-note' : governed ? 'instructor-governed-note' : undefined}
            data-testid="instructor-run-suite"
          >
            Run the whole suite
          </button>
        </div>
        {governed ? (
          <p className="muted small" id="instructor-governed-note" data-testid="instructor-governed-note">
            Governed runs run one case at a time (each may pause for a reviewer), on the fake model: switch “governed, taint on” off to run the suite.
          </p>
        ) : null}
        <CaseMoveNote caseId={caseId} suggestions={suggestions[datasetId] ?? null} />
        <p className="muted small" data-testid="pairing-note">
          Each run is paired with the same run under no weakness, so the difference is everything the switches change — for a flag, each of its
          parts listed above. The next run uses: {label}.
        </p>
        {runBlocked ? <RoleNote id="instructor-role-note" text={runBlocked} /> : null}
        {error ? <p className="alert error">{error}</p> : null}
      </section>
      <FlagSuggestions flags={WEAKNESS_ORDER} suggestions={suggestions[datasetId] ?? null} onPick={pick} />
      <GuardrailSuggestions suggestions={suggestions[datasetId] ?? null} onPick={pickGuardrail} />
      {shown && shown.label !== label ? (
        <p className="alert info" role="status" data-testid="instructor-stale">
          The results below are for <strong>{shown.label}</strong>, not for the switches now chosen ({label}). Run again to see {label}.
        </p>
      ) : null}
      <div className={shown && shown.label !== label ? 'stale' : undefined}>
        {caseRuns ? <CaseResult baseline={caseRuns.baseline} current={caseRuns.current} label={caseRuns.label} deterministic={caseRuns.deterministic} /> : null}
        {suites ? <SuiteResult baselineId={suites.baseline} currentId={suites.current} label={suites.label} deterministic={suites.deterministic} /> : null}
      </div>
    </>
  );
}

'use client';
/** A matrix run's grouped bar chart, delta table (each changed cell opens the cases that moved) and per-category breakdown. */
import { useEffect, useState } from 'react';
import type { SuiteRunDto } from '@/lib/db/runs/types';
import { cellParam, categoryRows, deltaRows, formatDelta, isCaseRate, METRIC_MEANINGS, metricLabel, rateCount, TABLE_METRICS, TOKEN_NOISE_FRACTION, type MatrixCell } from '@/lib/charts/matrix-view';
import { guardrailRows } from '@/lib/charts/guardrail-rows';
import dynamic from 'next/dynamic';
import { MetricTableHead } from './metric-table-head';
import { MovedCases } from './moved-cases';
import { CopyLinkButton } from '@/components/copy-link-button';
import type { SuiteStatistics } from '@/lib/eval/browser';
import { categoryCellStats, categoryMethodsOf, cellStats, methodsOf, significanceNote } from '@/lib/charts/matrix-stats';
import { CellStatsLines } from '@/components/cell-stats';

// recharts (~100 kB) loads after the page is interactive: the table, the figures people read first, does not wait for it.
const loadChart = () => import('./matrix-bar-chart');
const MatrixBarChart = dynamic(() => loadChart().then((m) => m.MatrixBarChart), {
  ssr: false,
  loading: () => <p className="muted small">Drawing the chart…</p>,
});

/**
 * Loads the chart's code while a suite works, so the finished table is not drawn behind evaluating
 * recharts (about 100 ms of one long task on the first demo's finished table, issue 36).
 */
export function preloadMatrixChart(): void {
  void loadChart().catch(() => undefined); // a failed load is retried, and shown, when the chart renders
}

const fmt = (metric: string, v: number | null) => (v === null ? '—' : metric.startsWith('mean_') ? v.toFixed(1) : v.toFixed(2));

const same = (a: MatrixCell | null, b: MatrixCell) => a !== null && a.setting === b.setting && a.metric === b.metric && a.category === b.category;

/**
 * `partialCases`: the suite is still working and these are its settings over the cases stored so far
 * (cases per setting, of `casesPerSetting`): figures only, no drill-down or download until it is done.
 */
export function MatrixResults({
  suite,
  initialCell = null,
  partialCases = null,
  casesPerSetting = null,
  stats = null,
}: {
  suite: SuiteRunDto;
  initialCell?: MatrixCell | null;
  partialCases?: Record<string, number> | null;
  casesPerSetting?: number | null;
  /** The finished suite's intervals and paired deltas (null while they load, or while the suite works). */
  stats?: SuiteStatistics | null;
}) {
  const partial = partialCases !== null;
  const [drill, setDrill] = useState<MatrixCell | null>(initialCell);
  // The address names the open cell, so it can be shared (copy link) and reopened.
  useEffect(() => {
    if (partial) return;
    const url = new URL(window.location.href);
    const want = drill ? cellParam(drill) : null;
    if (url.searchParams.get('cell') === want) return;
    if (want) url.searchParams.set('cell', want);
    else url.searchParams.delete('cell');
    window.history.replaceState(window.history.state, '', url);
  }, [drill, partial]);
  const rows = deltaRows(suite.settings);
  // Each setting's case count, so a rate reads with its n ("3 of 61").
  const casesOf = (setting: string): number | null => {
    const m = suite.settings.find((x) => x.setting === setting)?.metrics as Record<string, unknown> | undefined;
    return typeof m?.cases === 'number' ? m.cases : null;
  };
  const threshold = `${Math.round(TOKEN_NOISE_FRACTION * 100)}%`;
  const guardrails = guardrailRows(suite.settings);
  const categories = categoryRows(suite.settings);
  return (
    <>
      <section className="panel" aria-label="Gate metrics per setting">
        <h2>Gate metrics per setting</h2>
        <MatrixBarChart settings={suite.settings} stats={stats} />
        {stats ? (
          <p className="muted small" data-testid="chart-error-note">
            {stats.deterministic
              ? 'Error bars: none to draw — on the deterministic fake model every interval has zero width.'
              : `Error bars: 95% intervals (${methodsOf(stats, TABLE_METRICS).join('; ')}), ${stats.epochs} epoch${stats.epochs === 1 ? '' : 's'} per case.`}
          </p>
        ) : null}
      </section>

      {guardrails.rows.length > 0 ? (
        <section className="panel" aria-label="Guardrails per setting" data-testid="matrix-guardrails">
          <h2>Guardrails per setting</h2>
          <p className="muted small" style={{ marginTop: 0 }}>
            Share of cases where a guardrail fired (refused a call, was violated, found something, or its judge failed), the mean extra turns
            the guardrails gave, and the answers delivered with recorded violations.
          </p>
          <div className="table-wrap">
            <table className="data" data-testid="guardrail-table">
              <thead>
                <tr>
                  <th scope="col">setting</th>
                  <th scope="col">fired</th>
                  <th scope="col">mean retries</th>
                  <th scope="col">warned answers</th>
                  {guardrails.names.map((n) => (
                    <th key={n} scope="col" className="mono">
                      {n}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {guardrails.rows.map((r) => (
                  <tr key={r.setting}>
                    <th scope="row" className="mono">
                      {r.setting}
                    </th>
                    <td>{fmt('rate', r.violationRate)}</td>
                    <td>{fmt('mean_', r.meanRetries)}</td>
                    <td>{fmt('rate', r.warnedRate)}</td>
                    {guardrails.names.map((n) => (
                      <td key={n}>{fmt('rate', r.perGuardrail[n] ?? null)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      <section className="panel" aria-label="Change from none">
        <h2>Change from none</h2>
        {partial ? (
          <p className="alert info small" data-testid="matrix-partial" role="status">
            Filling in as runs are stored: each row is its setting over the cases stored so far. The cases behind a cell open once the
            matrix is done.
          </p>
        ) : (
          <p className="muted small" style={{ marginTop: 0 }}>
            Green is better, red is worse (for loop rate and tokens, lower is better). Click a changed cell for the cases behind it.{' '}
            <a href={`/api/suites/${suite.id}/export`} download data-testid="download-suite">
              Download the suite (JSONL)
            </a>
          </p>
        )}
        <div className="table-wrap">
          <table className="data" data-testid="delta-table">
            <MetricTableHead />
            <tbody>
              {rows.map((r) => (
                <tr key={r.setting} data-setting={r.setting} data-partial={partial ? 'true' : undefined}>
                  <th scope="row">
                    {r.setting}
                    {partial ? (
                      <div className="muted small" data-testid="partial-cases">
                        {partialCases[r.setting] ?? 0} of {casesPerSetting ?? '?'} cases
                      </div>
                    ) : null}
                  </th>
                  {r.cells.map((c) => {
                    const cell = { setting: r.setting, metric: c.metric, category: null };
                    return (
                    <td
                      key={c.metric}
                      className={`num ${c.direction !== 'same' ? `delta ${c.direction}` : ''} ${same(drill, cell) ? 'selected' : ''}`}
                      data-metric={c.metric}
                    >
                      {c.direction === 'same' && c.delta !== null && c.delta !== 0 ? (
                        <span data-testid="below-threshold" title={`Moved ${formatDelta(c.delta)}: under ${threshold} of none's value, so not counted as a move`}>
                          {fmt(c.metric, c.value)} <span className="muted small">({formatDelta(c.delta)}, under {threshold})</span>
                        </span>
                      ) : c.direction !== 'same' && !partial ? (
                        <button
                          type="button"
                          className="small cell-button"
                          aria-pressed={same(drill, cell)}
                          onClick={() => setDrill(same(drill, cell) ? null : cell)}
                          aria-label={`${r.setting} ${metricLabel(c.metric)} ${fmt(c.metric, c.value)} (${formatDelta(c.delta)}): show the cases that moved`}
                        >
                          {fmt(c.metric, c.value)} ({formatDelta(c.delta)})
                        </button>
                      ) : (
                        fmt(c.metric, c.value)
                      )}
                      {isCaseRate(c.metric) && rateCount(c.value, casesOf(r.setting)) ? (
                        <div className="muted small" data-testid="cell-count">
                          {rateCount(c.value, casesOf(r.setting))}
                        </div>
                      ) : null}
                      {stats && !partial && cellStats(stats, r.setting, c.metric, isCaseRate(c.metric)) ? (
                        <CellStatsLines stats={cellStats(stats, r.setting, c.metric, isCaseRate(c.metric))!} exact={stats.deterministic} />
                      ) : null}
                    </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted small" data-testid="matrix-threshold-note">
          Rates are shares of the setting&apos;s cases, with the count under each. A mean token count that moves by less than {threshold} of
          none&apos;s is not counted as a move: its change is shown in grey, “under {threshold}”. On the deterministic fake model every
          difference is exact.
        </p>
        {stats ? (
          <p className="small" data-testid="significance-note">
            {significanceNote(stats)}{' '}
            {stats.deterministic ? null : (
              <>
                Intervals: {methodsOf(stats, TABLE_METRICS).join('; ')}. {stats.epochs} epoch{stats.epochs === 1 ? '' : 's'} per case; n counts runs.
              </>
            )}
          </p>
        ) : null}
        <dl className="small metric-meanings" data-testid="metric-meanings">
          {TABLE_METRICS.filter((m) => METRIC_MEANINGS[m]).map((m) => (
            <div key={m}>
              <dt>{metricLabel(m)}</dt>
              <dd>{METRIC_MEANINGS[m]}</dd>
            </div>
          ))}
        </dl>
        {drill && drill.category === null ? (
          <>
            <MovedCases suiteId={suite.id} setting={drill.setting} metric={drill.metric} onClose={() => setDrill(null)} />
            <CopyLinkButton label="Copy link to these cases" />
          </>
        ) : null}
      </section>

      <section className="panel" aria-label="Per category">
        <h2>Per category</h2>
        <div className="table-wrap">
          <table className="data" data-testid="category-table">
            <thead>
              <tr>
                <th>Category</th>
                <th>Setting</th>
                <th className="num">Tool selection</th>
                <th className="num">Answer correct</th>
                <th className="num">Termination match</th>
              </tr>
            </thead>
            <tbody>
              {categories.flatMap((c) =>
                c.settings.map((s, i) => (
                  <tr key={`${c.category}-${s.setting}`}>
                    {i === 0 ? (
                      <th scope="rowgroup" rowSpan={c.settings.length}>
                        {c.category}
                        <div className="muted small">{c.cases} cases</div>
                      </th>
                    ) : null}
                    <td>{s.setting}</td>
                    {s.cells.map((cell) => {
                      const at = { setting: s.setting, metric: cell.metric, category: c.category };
                      const cs = stats && !partial ? categoryCellStats(stats, s.setting, c.category, cell.metric, isCaseRate(cell.metric)) : null;
                      return (
                        <td
                          key={cell.metric}
                          className={`num ${cell.direction !== 'same' ? `delta ${cell.direction}` : ''} ${same(drill, at) ? 'selected' : ''}`}
                          data-category={c.category}
                          data-setting={s.setting}
                          data-metric={cell.metric}
                        >
                          {cell.direction !== 'same' && !partial ? (
                            <button
                              type="button"
                              className="small cell-button"
                              aria-pressed={same(drill, at)}
                              onClick={() => setDrill(same(drill, at) ? null : at)}
                              aria-label={`${c.category} under ${s.setting}: ${metricLabel(cell.metric)} ${fmt(cell.metric, cell.value)} (${formatDelta(cell.delta)}): show the cases that moved`}
                            >
                              {fmt(cell.metric, cell.value)} ({formatDelta(cell.delta)})
                            </button>
                          ) : (
                            fmt(cell.metric, cell.value)
                          )}
                          {cs?.count ? (
                            <div className="muted small" data-testid="cell-count">
                              {cs.count}
                            </div>
                          ) : null}
                          {cs ? <CellStatsLines stats={cs} exact={stats!.deterministic} /> : null}
                        </td>
                      );
                    })}
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
        {stats && !partial ? (
          <p className="muted small" data-testid="category-interval-note">
            {stats.deterministic
              ? 'On the deterministic fake model every per-category figure is exact (zero-width intervals).'
              : `Each figure with its 95% interval over that category's runs (${categoryMethodsOf(stats).join('; ')}), ${stats.epochs} epoch${stats.epochs === 1 ? '' : 's'} per case; n counts runs.`}
          </p>
        ) : null}
        {drill && drill.category !== null ? (
          <>
            <MovedCases suiteId={suite.id} setting={drill.setting} metric={drill.metric} category={drill.category} onClose={() => setDrill(null)} />
            <CopyLinkButton label="Copy link to these cases" />
          </>
        ) : null}
      </section>
    </>
  );
}

'use client';
/** A matrix run's grouped bar chart, delta table (each changed cell opens the cases that moved) and per-category breakdown. */
import { useState } from 'react';
import type { SuiteRunDto } from '@/lib/db/types';
import { categoryRows, deltaRows, formatDelta, metricLabel } from '@/lib/charts/matrix-view';
import { MatrixBarChart } from './matrix-bar-chart';
import { MetricTableHead } from './metric-table-head';
import { MovedCases } from './moved-cases';

const fmt = (metric: string, v: number | null) => (v === null ? '—' : metric.startsWith('mean_') ? v.toFixed(1) : v.toFixed(2));

export function MatrixResults({ suite }: { suite: SuiteRunDto }) {
  const [drill, setDrill] = useState<{ setting: string; metric: string } | null>(null);
  const rows = deltaRows(suite.settings);
  const categories = categoryRows(suite.settings);
  return (
    <>
      <section className="panel" aria-label="Gate metrics per setting">
        <h2>Gate metrics per setting</h2>
        <MatrixBarChart settings={suite.settings} />
      </section>

      <section className="panel" aria-label="Change from none">
        <h2>Change from none</h2>
        <p className="muted small" style={{ marginTop: 0 }}>
          Green is better, red is worse (for loop rate and tokens, lower is better). Click a changed cell for the cases behind it.{' '}
          <a href={`/api/suites/${suite.id}/export`} download data-testid="download-suite">
            Download the suite (JSONL)
          </a>
        </p>
        <div className="table-wrap">
          <table className="data" data-testid="delta-table">
            <MetricTableHead />
            <tbody>
              {rows.map((r) => (
                <tr key={r.setting} data-setting={r.setting}>
                  <th scope="row">{r.setting}</th>
                  {r.cells.map((c) => (
                    <td key={c.metric} className={`num ${c.direction !== 'same' ? `delta ${c.direction}` : ''}`} data-metric={c.metric}>
                      {c.direction !== 'same' ? (
                        <button
                          type="button"
                          className="small"
                          style={{ background: 'transparent', border: 0, color: 'inherit', fontWeight: 600, padding: 0 }}
                          onClick={() => setDrill({ setting: r.setting, metric: c.metric })}
                          aria-label={`${r.setting} ${metricLabel(c.metric)} ${fmt(c.metric, c.value)} (${formatDelta(c.delta)}): show the cases that moved`}
                        >
                          {fmt(c.metric, c.value)} ({formatDelta(c.delta)})
                        </button>
                      ) : (
                        fmt(c.metric, c.value)
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {drill ? <MovedCases suiteId={suite.id} setting={drill.setting} metric={drill.metric} onClose={() => setDrill(null)} /> : null}
      </section>

      <section className="panel" aria-label="Per category">
        <h2>Per category</h2>
        <div className="table-wrap">
          <table className="data">
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
                    {s.cells.map((cell) => (
                      <td key={cell.metric} className={`num ${cell.direction !== 'same' ? `delta ${cell.direction}` : ''}`}>
                        {fmt(cell.metric, cell.value)}
                        {cell.direction !== 'same' ? ` (${formatDelta(cell.delta)})` : ''}
                      </td>
                    ))}
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

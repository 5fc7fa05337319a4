'use client';
/** Two matrix runs side by side: each setting's metrics in both and the change from the earlier one. */
import type { SuiteRunDto } from '@/lib/db/runs/types';
import { compareMatrixRuns, formatDelta } from '@/lib/charts/matrix-view';
import { useSuiteRun } from '@/components/use-suite-run';
import { MetricTableHead } from './metric-table-head';

const fmt = (v: number | null) => (v === null ? '—' : v.toFixed(2));

export function MatrixComparison({ current, otherId }: { current: SuiteRunDto; otherId: string }) {
  const other = useSuiteRun(otherId);
  if (other.isPending) return <p className="muted">Loading the run to compare…</p>;
  if (other.isError) return <p className="alert error">{other.error.message}</p>;
  const rows = compareMatrixRuns(other.data.suite.settings, current.settings);
  return (
    <section className="panel" aria-label="Comparison with an earlier matrix run">
      <h2>Compared with the run of {other.data.suite.createdAt.replace('T', ' ').slice(0, 19)}</h2>
      <p className="muted small" style={{ marginTop: 0 }}>
        Each cell: earlier → this run (change). Datasets: {other.data.suite.datasetName} → {current.datasetName}
        {other.data.suite.datasetHash !== current.datasetHash ? ' (the data differ)' : ' (same data)'}.
      </p>
      <div className="table-wrap">
        <table className="data" data-testid="matrix-comparison">
          <MetricTableHead />
          <tbody>
            {rows.map((r) => (
              <tr key={r.setting}>
                <th scope="row">{r.setting}</th>
                {r.cells.map((c) => (
                  <td key={c.metric} className={`num ${c.direction !== 'same' ? `delta ${c.direction}` : ''}`}>
                    {fmt(c.a)} → {fmt(c.b)} {c.direction !== 'same' ? `(${formatDelta(c.delta)})` : ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

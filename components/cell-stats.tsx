/** Under a metric's value: its 95% interval and n, and (for a setting compared with a base) the paired delta's interval, mark and verdict. */
import type { CellStats } from '@/lib/charts/matrix-stats';

export function CellStatsLines({ stats, exact, baseLabel = 'none' }: { stats: CellStats; exact: boolean; baseLabel?: string }) {
  const d = stats.delta;
  return (
    <>
      <div className="muted small" data-testid="cell-interval" title={`95% interval: ${stats.method ?? ''}`}>
        {exact ? 'exact' : stats.interval}
        {/* A rate's count is on the line above ("3 of 61"); a mean's n is said here. */}
        {stats.count === null && stats.n !== null ? ` · n ${stats.n}` : ''}
      </div>
      {d && !exact ? (
        <div className="small" data-testid="delta-mark" data-verdict={d.verdict} title={`${d.words}; ${d.test}`}>
          Δ {d.interval} <span aria-hidden="true">{d.mark}</span>
          <span className="visually-hidden">
            {' '}
            {d.words.replace('none', baseLabel)}
          </span>
          {d.power ? (
            <div className="muted small" data-testid="power-hint">
              {d.power}
            </div>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

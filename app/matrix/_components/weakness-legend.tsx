/** The matrix's rows explained: each flag, what it switches and what it does to a run, read from the weakness table. */
import { weaknessLegend } from '@/lib/stockroom/browser';

export function WeaknessLegend() {
  return (
    <details className="flag-parts" data-testid="matrix-legend">
      <summary>What each row switches</summary>
      <dl>
        {weaknessLegend().map((row) => (
          <div key={row.flag} data-legend-flag={row.flag}>
            <dt className="mono">{row.flag}</dt>
            <dd className="small">
              {row.description} <span className="muted">Switches: {row.switches}.</span>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

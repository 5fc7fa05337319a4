/**
 * What the tenant's online evaluators scored this run (issue 37), beside the reviewers' labels but
 * apart from them: measurements by a named, versioned evaluator, not a person's verdict.
 */
import Link from 'next/link';
import type { RunScoreDto } from '@/lib/db/review/run-scores';

export function ScoresPanel({ scores }: { scores: readonly RunScoreDto[] }) {
  if (scores.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="scores-heading" data-testid="scores-panel">
      <h2 id="scores-heading">Evaluator scores</h2>
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Evaluator</th>
              <th>Kind</th>
              <th className="num">Score</th>
              <th className="num">Measure</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {scores.map((s) => (
              <tr key={s.id} data-testid="score-row">
                <td>
                  <Link href={`/runs?evaluator=${encodeURIComponent(s.evaluatorName)}`} prefetch={false}>
                    {s.evaluatorName}
                  </Link>{' '}
                  <span className="muted small">v{s.evaluatorVersion}</span>
                </td>
                <td>{s.kind}</td>
                <td className="num" data-testid="score-value">
                  {s.score === null ? <span className="muted">none</span> : s.score.toFixed(2)}
                </td>
                <td className="num">{s.value === null ? <span className="muted">unknown</span> : String(s.value)}</td>
                <td className="small">{s.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

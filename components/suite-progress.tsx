/** Progress of a suite run: a bar and "n of m runs". */
import type { SuiteRunDto } from '@/lib/db/types';

export function SuiteProgress({ suite }: { suite: Pick<SuiteRunDto, 'status' | 'completed' | 'total' | 'error' | 'failed'> }) {
  const share = suite.total > 0 ? Math.min(1, suite.completed / suite.total) : suite.status === 'done' ? 1 : 0;
  return (
    <div className="stack" aria-live="polite">
      <div className="row small">
        <span className={`badge ${suite.status === 'done' ? 'good' : suite.status === 'failed' ? 'bad' : 'info'}`} data-testid="suite-status">
          {suite.status}
        </span>
        <span>
          {suite.completed} of {suite.total} runs
        </span>
      </div>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={suite.total} aria-valuenow={suite.completed}>
        <div style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {suite.error ? <p className="alert error">{suite.error}</p> : null}
    </div>
  );
}

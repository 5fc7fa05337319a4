/** Progress of a suite run: a bar, "n of m runs stored" (counted from stored runs) and the time left. */
import type { SuiteRunDto } from '@/lib/db/types';
import type { SuiteProgressDto } from '@/lib/db/suite-jobs';
import { formatEta } from '@/lib/format/eta';
import { noWorkerNotice, workersLine } from '@/lib/format/workers';

export function SuiteProgress({
  suite,
  progress,
}: {
  suite: Pick<SuiteRunDto, 'status' | 'completed' | 'total' | 'error' | 'failed'>;
  progress?: Pick<SuiteProgressDto, 'etaMs' | 'workers'> | null;
}) {
  const noWorker = progress ? noWorkerNotice(suite.status, progress.workers) : null;
  const onWorkers = progress ? workersLine(suite.status, progress.workers) : null;
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
        {progress?.etaMs != null ? <span className="muted" data-testid="suite-eta">{formatEta(progress.etaMs)}</span> : null}
        {onWorkers ? <span className="muted">{onWorkers}</span> : null}
      </div>
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={suite.total} aria-valuenow={suite.completed}>
        <div style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {noWorker ? (
        <p className="alert warn" role="status">
          {noWorker}
        </p>
      ) : null}
      {suite.error ? <p className={`alert ${suite.status === 'cancelled' ? 'info' : 'error'}`}>{suite.error}</p> : null}
    </div>
  );
}

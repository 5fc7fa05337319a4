/** Progress of a suite run: a bar, "n of m runs stored" (counted from stored runs) and the time left from the first second. */
import type { SuiteRunDto } from '@/lib/db/runs/types';
import type { SuiteProgressDto } from '@/lib/db/suites/suite-jobs';
import { suiteEstimate } from '@/lib/format/suite-estimate';
import { noWorkerNotice, workersLine } from '@/lib/format/workers';

export function SuiteProgress({
  suite,
  progress,
  timing = null,
}: {
  suite: Pick<SuiteRunDto, 'status' | 'completed' | 'total' | 'error' | 'failed'>;
  progress?: Pick<SuiteProgressDto, 'etaMs' | 'workers'> | null;
  /** How long the last finished suite like this one took, and how long this one has been going (ms); see suiteEstimate. */
  timing?: { previousMs: number | null; elapsedMs: number } | null;
}) {
  const active = suite.status === 'queued' || suite.status === 'running';
  const estimate = progress ? suiteEstimate({ etaMs: progress.etaMs, previousMs: timing?.previousMs ?? null, elapsedMs: timing?.elapsedMs ?? 0, active }) : null;
  const noWorker = progress ? noWorkerNotice(suite.status, progress.workers) : null;
  const onWorkers = progress ? workersLine(suite.status, progress.workers) : null;
  const share = suite.total > 0 ? Math.min(1, suite.completed / suite.total) : suite.status === 'done' ? 1 : 0;
  return (
    <div className="stack" aria-live="polite">
      <div className="row small">
        <span className={`badge ${suite.status === 'done' ? 'good' : suite.status === 'failed' ? 'bad' : 'info'}`} data-testid="suite-status">
          {suite.status}
        </span>
        <span data-testid="suite-count">
          {suite.completed} of {suite.total} runs{active ? ' stored' : ''}
        </span>
        {estimate ? (
          <span className="muted" data-testid="suite-eta">
            {estimate}
          </span>
        ) : null}
        {onWorkers ? <span className="muted">{onWorkers}</span> : null}
      </div>
      <div className="progress" role="progressbar" aria-label="Runs stored" aria-valuemin={0} aria-valuemax={suite.total} aria-valuenow={suite.completed}>
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

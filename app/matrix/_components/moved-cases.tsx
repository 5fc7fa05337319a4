'use client';
/** The cases whose score on one metric differs between none and a setting, with links to both runs. */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { MovedCase } from '@/lib/db/runs/types';
import { metricLabel } from '@/lib/charts/matrix-view';
import { displayJson } from '@/lib/charts/message-view';
import { fetchJson } from '@/components/fetch-json';

export function MovedCases({
  suiteId,
  setting,
  metric,
  category = null,
  onClose,
}: {
  suiteId: string;
  setting: string;
  metric: string;
  /** Only this category's cases (a per-category cell), or all. */
  category?: string | null;
  onClose: () => void;
}) {
  const q = useQuery({
    queryKey: ['moved', suiteId, setting, metric, category],
    queryFn: ({ signal }) =>
      fetchJson<{ scoreKey: string; cases: MovedCase[] }>(
        `/api/suites/${encodeURIComponent(suiteId)}/moved?setting=${encodeURIComponent(setting)}&metric=${encodeURIComponent(metric)}${category ? `&category=${encodeURIComponent(category)}` : ''}`,
        signal,
      ),
    staleTime: Infinity,
  });
  // Runs per case: a case is compared over all its epochs (its mean score), not its first run alone.
  const epochs = Math.max(1, ...(q.data?.cases.map((c) => c.epochs) ?? []));
  return (
    <div className="panel" style={{ marginTop: '1rem', borderColor: '#93b4ff' }} data-testid="moved-cases">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h3 style={{ margin: 0 }}>
          Cases{category ? ` of ${category}` : ''} where {metricLabel(metric)} moved under {setting}
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {q.isPending ? (
        <p className="muted">Loading…</p>
      ) : q.isError ? (
        <p className="field-error">{q.error.message}</p>
      ) : q.data.cases.length === 0 ? (
        <p className="muted">No single case moved (the change comes from rounding or from a metric no case score explains).</p>
      ) : (
        <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Case</th>
              <th>Category</th>
              <th>
                {metricLabel(metric)}: no weakness → {setting}
                {epochs > 1 ? <span className="muted small"> (mean over each case&apos;s {epochs} epochs)</span> : null}
              </th>
              <th>Runs</th>
            </tr>
          </thead>
          <tbody>
            {q.data.cases.map((c) => (
              <tr key={c.caseId}>
                <td className="mono">{c.caseId}</td>
                <td>{c.category ?? '—'}</td>
                <td>
                  <span className="mono">
                    {displayJson(c.baseline)} → {displayJson(c.value)}
                  </span>
                  {c.epochs > 1 ? (
                    <div className="muted small" data-testid="moved-epochs">
                      differs in {c.movedEpochs} of {c.epochs} epochs; runs below: epoch {c.epoch + 1}
                    </div>
                  ) : null}
                </td>
                <td>
                  {/* The run that moved comes first: it is the one to open; the baseline is there to compare with. */}
                  {c.runId ? (
                    <Link href={`/runs/${c.runId}`} data-testid="moved-run">
                      replay under {setting}
                    </Link>
                  ) : null}
                  {c.baselineRunId && c.runId ? (
                    <>
                      {' · '}
                      <Link href={`/compare?a=${c.baselineRunId}&b=${c.runId}`}>compare with no weakness</Link>
                    </>
                  ) : null}
                  {c.baselineRunId ? (
                    <span className="muted small">
                      {c.runId ? ' · ' : null}
                      <Link href={`/runs/${c.baselineRunId}`} aria-label={`${c.caseId} with no weakness`}>
                        baseline (none)
                      </Link>
                    </span>
                  ) : null}
                  {c.runId ? (
                    <>
                      {' · '}
                      <Link href={`/compare?a=${c.runId}`}>compare under another setting…</Link>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </div>
  );
}

'use client';
/** The suite under no weakness and under the chosen switches: progress, the metrics that moved, and the cases behind the biggest move. */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { SuiteCaseDto } from '@/lib/db/runs/types';
import { caseMoved, caseScoreKey, formatDelta, isCaseRate, METRIC_MEANINGS, metricLabel, rateCount, TOKEN_NOISE_FRACTION } from '@/lib/charts/matrix-view';
import { biggestMove, metricMoves, SUITE_CARD_METRICS } from '@/lib/charts/suite-diff';
import { casesMovedOverEpochs } from '@/lib/eval/browser';
import { fetchJson } from '@/components/fetch-json';
import { displayJson } from '@/lib/charts/message-view';
import { SuiteProgress } from '@/components/suite-progress';
import { isFinished, useSuiteRun } from '@/components/use-suite-run';
import { useSuiteStatistics } from '@/components/use-suite-statistics';
import { cellStats, methodsOf, significanceNote } from '@/lib/charts/matrix-stats';
import { AGAINST_CURRENT } from '@/lib/charts/matrix-stats';
import { CellStatsLines } from '@/components/cell-stats';

// Token means are whole numbers of tokens; rates read to two decimals.
const digits = (metric: string) => (metric.startsWith('mean_') ? 0 : 2);

const cases = (id: string) => ({
  queryKey: ['suite-cases', id],
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchJson<{ cases: SuiteCaseDto[] }>(`/api/suites/${encodeURIComponent(id)}/cases`, signal),
  staleTime: Infinity,
});

/** A metric's cases, from the stored metrics' `cases` (null when absent). */
const casesOf = (metrics: unknown): number | null => {
  const n = metrics && typeof metrics === 'object' ? (metrics as Record<string, unknown>).cases : null;
  return typeof n === 'number' ? n : null;
};

/** `deterministic`: both suites ran on the scripted fake model, so every difference is exact. */
export function SuiteResult({ baselineId, currentId, label, deterministic = false }: { baselineId: string; currentId: string; label: string; deterministic?: boolean }) {
  // Progress only: the cards are drawn from the finished suites.
  const base = useSuiteRun(baselineId, null, { partial: false });
  const cur = useSuiteRun(currentId, null, { partial: false });
  const done = base.data?.suite.status === 'done' && cur.data?.suite.status === 'done';
  const baseCases = useQuery({ ...cases(baselineId), enabled: done });
  const curCases = useQuery({ ...cases(currentId), enabled: done });
  // The current suite against the baseline, paired by case: intervals, deltas and their marks.
  const stats = useSuiteStatistics(currentId, { against: baselineId, enabled: done }).data ?? null;

  if (!base.data || !cur.data) return <p className="muted">Starting…</p>;
  if (!isFinished(base.data.suite) || !isFinished(cur.data.suite) || !done) {
    return (
      <section className="panel" aria-label="Suite progress">
        <h2>Running the suite twice</h2>
        <p className="small">No weakness</p>
        <SuiteProgress suite={base.data.suite} progress={base.data.progress} />
        <p className="small">{label}</p>
        <SuiteProgress suite={cur.data.suite} progress={cur.data.progress} />
      </section>
    );
  }
  const moves = metricMoves(base.data.suite.settings[0]?.metrics, cur.data.suite.settings[0]?.metrics, SUITE_CARD_METRICS);
  const nBase = casesOf(base.data.suite.settings[0]?.metrics);
  const nCur = casesOf(cur.data.suite.settings[0]?.metrics);
  const top = biggestMove(moves);
  const key = top ? caseScoreKey(top.metric) : null;
  const moved =
    key && baseCases.data && curCases.data
      ? casesMovedOverEpochs(baseCases.data.cases, curCases.data.cases, key, (a, b) => caseMoved(key, a, b))
      : [];

  return (
    <section aria-label="Suite result" data-testid="instructor-suite-result">
      <h2>
        3. What moved under <span data-testid="result-label">{label}</span>
      </h2>
      {deterministic ? (
        <p className="small muted" data-testid="exact-note">
          The fake model is deterministic: a rerun of either suite gives the same figures, so every difference below is exact, not noise.
        </p>
      ) : null}
      {stats && !stats.deterministic ? (
        <p className="small" data-testid="significance-note">
          {significanceNote(stats).replaceAll('against baseline', 'against no weakness').replaceAll('from baseline', 'from no weakness')} Intervals: {methodsOf(stats, Object.keys(stats.intervals[AGAINST_CURRENT] ?? {})).join('; ')}. {stats.epochs}{' '}
          epoch{stats.epochs === 1 ? '' : 's'} per case; n counts runs.
        </p>
      ) : null}
      <div className="metric-cards">
        {moves.map((m) => {
          const rate = isCaseRate(m.metric);
          const count = rate ? rateCount(m.value, nCur) : null;
          const deltaCount = rate && m.delta !== null && nCur !== null && nCur === nBase ? Math.abs(Math.round(m.delta * nCur)) : null;
          // A token mean that moved by less than the matrix's threshold is shown as unchanged: said where it applies.
          const hidden = m.direction === 'same' && m.delta !== null && m.delta !== 0;
          return (
            <div key={m.metric} className={`metric-card ${m.direction !== 'same' ? `delta ${m.direction}` : ''}`} data-metric={m.metric}>
              <div className="label">{metricLabel(m.metric)}</div>
              {METRIC_MEANINGS[m.metric] ? <div className="small muted">{METRIC_MEANINGS[m.metric]}</div> : null}
              <div className="big-number">{m.value === null ? '—' : m.value.toFixed(digits(m.metric))}</div>
              {count ? (
                <div className="small" data-testid="rate-count">
                  {count} cases
                </div>
              ) : null}
              {stats && cellStats(stats, AGAINST_CURRENT, m.metric, rate) ? (
                <CellStatsLines stats={cellStats(stats, AGAINST_CURRENT, m.metric, rate)!} exact={stats.deterministic} baseLabel="no weakness" />
              ) : null}
              <div className="small" data-testid="metric-change">
                {hidden
                  ? `${formatDelta(m.delta, digits(m.metric))} from ${m.baseline?.toFixed(digits(m.metric))}: under the ${Math.round(TOKEN_NOISE_FRACTION * 100)}% a token mean must move to count as moved`
                  : m.direction === 'same'
                    ? 'unchanged'
                    : `${formatDelta(m.delta, digits(m.metric))}${deltaCount !== null ? ` (${deltaCount} of ${nCur} cases)` : ''} from ${m.baseline?.toFixed(digits(m.metric))}`}
              </div>
            </div>
          );
        })}
      </div>
      {top ? (
        <div className="panel" style={{ marginTop: '1rem' }}>
          <h3 style={{ marginTop: 0 }}>
            Biggest move: {metricLabel(top.metric)} {formatDelta(top.delta, digits(top.metric))} — the cases that show why
          </h3>
          {moved.length === 0 ? (
            <p className="muted">Loading cases…</p>
          ) : (
            <ul className="steps-list">
              {moved.map((c) => (
                <li key={c.caseId}>
                  <strong className="mono">{c.caseId}</strong> <span className="muted">{c.category}</span>
                  {c.epochs > 1 ? (
                    <span className="small muted" data-testid="moved-epochs">
                      {' '}
                      ({displayJson(c.baseline)} → {displayJson(c.value)} over {c.epochs} epochs; differs in {c.movedEpochs}, epoch {c.epoch + 1} linked)
                    </span>
                  ) : null}
                  :{' '}
                  {c.baselineRunId && c.runId ? <Link href={`/compare?a=${c.baselineRunId}&b=${c.runId}`}>compare trajectories</Link> : null}
                  {c.runId ? (
                    <>
                      {' · '}
                      <Link href={`/runs/${c.runId}`}>replay</Link>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <p className="panel">No gate metric moved: this switch makes no difference on this suite.</p>
      )}
    </section>
  );
}

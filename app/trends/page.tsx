/**
 * How the tenant's runs move over time (issue 37): runs per hour or day, termination mix, latency
 * percentiles, cost and tokens, evaluator scores and guardrail findings, by model, source, agent or tag,
 * over a chosen window. Read from the hourly rollup the watch job keeps, never computed from the runs
 * per view. Every point links to the runs behind it.
 */
import Link from 'next/link';
import { requireUser } from '@/lib/auth/page-guard';
import { rollupRows, topRollupValues } from '@/lib/db/review/rollup';
import { LATENCY_PERCENTILE_ERROR } from '@/lib/charts/latency-histogram';
import { MAX_SERIES, prepareTrends, TREND_DIMS, TREND_WINDOWS, windowOf, type TrendDim, type TrendWindow } from '@/lib/charts/trends';
import { TrendCharts } from './_components/trend-charts';

export const dynamic = 'force-dynamic';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function TrendsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const params = await searchParams;
  const windowName = (Object.keys(TREND_WINDOWS) as TrendWindow[]).find((k) => k === one(params.window)) ?? '7d';
  const dim = (TREND_DIMS as readonly string[]).find((d) => d === one(params.by)) as TrendDim | undefined ?? 'all';
  const w = windowOf(windowName, new Date());
  // The chosen dimension's series, and every run once (dimension `all`) for the charts that sum.
  // Only the busiest values' rows are read: a chart draws MAX_SERIES series.
  const window = { tenant: user.tenant, dim, from: w.from, to: w.to };
  const [byDim, allRows] = await Promise.all([
    // The dimension's lines: their runs and the point table's figures (the mix and the scores are drawn for all runs).
    dim === 'all' ? rollupRows(window, undefined, undefined, w.step) : topRollupValues(window, MAX_SERIES).then((values) => rollupRows(window, undefined, values, w.step, { series: true })),
    dim === 'all' ? null : rollupRows({ ...window, dim: 'all' }, undefined, undefined, w.step),
  ]);
  const trends = prepareTrends(byDim, w);
  const headline = allRows ? prepareTrends(allRows, w) : trends;
  const totals = headline.series[0]?.points.reduce(
    (t, p) => ({ runs: t.runs + p.runs, unreported: t.unreported + p.unreportedCalls, unpriced: t.unpriced + p.costUnknownRuns, cost: t.cost + p.costUsd }),
    { runs: 0, unreported: 0, unpriced: 0, cost: 0 },
  ) ?? { runs: 0, unreported: 0, unpriced: 0, cost: 0 };
  const link = (o: { window?: string; by?: string }) => `/trends?window=${o.window ?? windowName}&by=${o.by ?? dim}`;
  return (
    <main className="page">
      <h1>Trends</h1>
      <p className="lede">
        Tenant {user.tenant}: finished runs made here or imported, counted per hour as they are stored (suite runs are on their suite’s page).
        Click a point, or open the table under the first chart, for the runs behind it. Latency percentiles come from hourly histograms
        whose buckets are 19% wide: each is within ±{Math.round(LATENCY_PERCENTILE_ERROR * 100)}% of the exact value.
        {dim === 'tag' ? ' By tag, a run with several tags counts under each, so the tags of a point need not add up to its runs; runs without a tag are in none.' : null}
      </p>
      <nav className="row" aria-label="Window and grouping" style={{ gap: '1rem', flexWrap: 'wrap' }}>
        <span>
          Window:{' '}
          {(Object.keys(TREND_WINDOWS) as TrendWindow[]).map((k) => (
            <Link key={k} href={link({ window: k })} aria-current={k === windowName ? 'page' : undefined} prefetch={false} style={{ marginRight: '0.5rem' }}>
              {k}
            </Link>
          ))}
        </span>
        <span>
          By:{' '}
          {TREND_DIMS.map((d) => (
            <Link key={d} href={link({ by: d })} aria-current={d === dim ? 'page' : undefined} prefetch={false} style={{ marginRight: '0.5rem' }}>
              {d === 'all' ? 'all runs' : d}
            </Link>
          ))}
        </span>
      </nav>
      <p data-testid="trend-totals">
        {totals.runs} runs · ${totals.cost.toFixed(4)} on priced runs
        {totals.unpriced > 0 ? ` (${totals.unpriced} runs unpriced: their cost is unknown, not counted)` : ''}
        {totals.unreported > 0 ? ` · ${totals.unreported} calls unreported (their tokens are not in the totals)` : ''}
      </p>
      <TrendCharts trends={trends} dim={dim} headline={headline} />
    </main>
  );
}

'use client';
/**
 * The dashboard's charts (issue 37): recharts only draws what lib/charts/trends.ts shaped. Each point is
 * a link to the runs behind it (click a dot or a bar); the table under each chart holds the same
 * figures and links for keyboards and screen readers. Colours are the Okabe–Ito palette, legible in
 * light and dark.
 */
import { useRouter } from 'next/navigation';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Trends, TrendDim } from '@/lib/charts/trends';
import { pointRunsHref } from '@/lib/charts/trends';

const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9'];
const label = (iso: string, step: 'hour' | 'day') => (step === 'hour' ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10));

type Row = Record<string, number | string | null>;

function Frame({ testId, children }: { testId: string; children: React.ReactElement }) {
  return (
    <div className="chart-box" data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

export function TrendCharts({ trends, dim, headline }: { trends: Trends; dim: TrendDim; headline: Trends }) {
  const router = useRouter();
  const step = trends.step;
  // Runs per point, one line per series of the chosen dimension.
  const runsData: Row[] = (trends.series[0]?.points ?? []).map((p, i) => ({ t: label(p.from, step), ...Object.fromEntries(trends.series.map((s) => [s.value || 'all runs', s.points[i]!.runs])) }));
  const all = headline.series[0];
  const points = all?.points ?? [];
  const go = (href: string) => router.push(href);
  const onLinePoint = (series: string) => (_: unknown, index: number) => {
    const s = trends.series.find((x) => (x.value || 'all runs') === series);
    const p = s?.points[index];
    if (s && p) go(pointRunsHref(dim, s.value, p));
  };
  const mixData: Row[] = points.map((p) => ({ t: label(p.from, step), ...p.terminations }));
  const latencyData: Row[] = points.map((p) => ({ t: label(p.from, step), p50: p.p50Ms, p95: p.p95Ms }));
  const costData: Row[] = points.map((p) => ({ t: label(p.from, step), cost: p.costUsd, tokens: p.inputTokens + p.outputTokens }));
  const scoreData: Row[] = points.map((p) => ({ t: label(p.from, step), ...p.scores }));
  const guardData: Row[] = points.map((p) => ({ t: label(p.from, step), findings: p.guardrailFindings }));
  const headDim: TrendDim = headline === trends ? dim : 'all';
  const headValue = all?.value ?? '';
  const barClick = (extra: (key: string) => { termination?: string; evaluator?: string } = () => ({})) => (key: string) => (data: unknown, index: number) => {
    void data;
    const p = points[index];
    if (p) go(pointRunsHref(headDim, headValue, p, extra(key)));
  };
  return (
    <>
      <section className="panel" aria-labelledby="chart-runs">
        <h2 id="chart-runs">Runs per {step}</h2>
        <Frame testId="chart-runs">
          <LineChart data={runsData} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
            <CartesianGrid stroke="var(--border, #e5e9f0)" vertical={false} />
            <XAxis dataKey="t" tick={{ fontSize: 11 }} minTickGap={24} />
            <YAxis width={40} tick={{ fontSize: 11 }} allowDecimals={false} />
            <Tooltip />
            <Legend />
            {trends.series.map((s, i) => (
              <Line
                key={s.value || 'all'}
                dataKey={s.value || 'all runs'}
                stroke={COLOURS[i % COLOURS.length]}
                isAnimationActive={false}
                dot={{ r: 3 }}
                activeDot={{ r: 5, onClick: (e: unknown, d: unknown) => { void e; const idx = (d as { index?: number })?.index; if (typeof idx === 'number') onLinePoint(s.value || 'all runs')(null, idx); } }}
              />
            ))}
          </LineChart>
        </Frame>
        <PointTable trends={trends} dim={dim} />
      </section>
      <div className="grid-2">
        <section className="panel" aria-labelledby="chart-mix">
          <h2 id="chart-mix">Termination mix</h2>
          <Frame testId="chart-mix">
            <BarChart data={mixData} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
              <CartesianGrid stroke="var(--border, #e5e9f0)" vertical={false} />
              <XAxis dataKey="t" tick={{ fontSize: 11 }} minTickGap={24} />
              <YAxis width={40} tick={{ fontSize: 11 }} allowDecimals={false} />
              <Tooltip />
              <Legend />
              {headline.terminations.map((t, i) => (
                <Bar key={t} dataKey={t} stackId="mix" fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} onClick={barClick((k) => ({ termination: k }))(t)} cursor="pointer" />
              ))}
            </BarChart>
          </Frame>
        </section>
        <section className="panel" aria-labelledby="chart-latency">
          <h2 id="chart-latency">Latency p50 and p95 (ms)</h2>
          <Frame testId="chart-latency">
            <LineChart data={latencyData} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
              <CartesianGrid stroke="var(--border, #e5e9f0)" vertical={false} />
              <XAxis dataKey="t" tick={{ fontSize: 11 }} minTickGap={24} />
              <YAxis width={52} tick={{ fontSize: 11 }} />
              <Tooltip />
              <Legend />
              <Line dataKey="p50" stroke={COLOURS[0]} isAnimationActive={false} connectNulls={false} />
              <Line dataKey="p95" stroke={COLOURS[4]} isAnimationActive={false} connectNulls={false} />
            </LineChart>
          </Frame>
        </section>
        <section className="panel" aria-labelledby="chart-cost">
          <h2 id="chart-cost">Cost (USD, priced runs)</h2>
          <Frame testId="chart-cost">
            <BarChart data={costData} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
              <CartesianGrid stroke="var(--border, #e5e9f0)" vertical={false} />
              <XAxis dataKey="t" tick={{ fontSize: 11 }} minTickGap={24} />
              <YAxis width={52} tick={{ fontSize: 11 }} />
              <Tooltip />
              <Bar dataKey="cost" fill={COLOURS[2]} isAnimationActive={false} onClick={barClick()('cost')} cursor="pointer" />
            </BarChart>
          </Frame>
        </section>
        <section className="panel" aria-labelledby="chart-scores">
          <h2 id="chart-scores">Mean evaluator scores</h2>
          {headline.evaluators.length === 0 ? (
            <p className="muted small">No evaluator scored runs in this window.</p>
          ) : (
            <Frame testId="chart-scores">
              <LineChart data={scoreData} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
                <CartesianGrid stroke="var(--border, #e5e9f0)" vertical={false} />
                <XAxis dataKey="t" tick={{ fontSize: 11 }} minTickGap={24} />
                <YAxis width={40} domain={[0, 1]} tick={{ fontSize: 11 }} />
                <Tooltip />
                <Legend />
                {headline.evaluators.map((e, i) => (
                  <Line key={e} dataKey={e} stroke={COLOURS[i % COLOURS.length]} isAnimationActive={false} connectNulls={false} />
                ))}
              </LineChart>
            </Frame>
          )}
        </section>
        <section className="panel" aria-labelledby="chart-guardrails">
          <h2 id="chart-guardrails">Guardrail findings</h2>
          <Frame testId="chart-guardrails">
            <BarChart data={guardData} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
              <CartesianGrid stroke="var(--border, #e5e9f0)" vertical={false} />
              <XAxis dataKey="t" tick={{ fontSize: 11 }} minTickGap={24} />
              <YAxis width={40} tick={{ fontSize: 11 }} allowDecimals={false} />
              <Tooltip />
              <Bar dataKey="findings" fill={COLOURS[3]} isAnimationActive={false} onClick={barClick()('findings')} cursor="pointer" />
            </BarChart>
          </Frame>
        </section>
      </div>
    </>
  );
}

/** The figures of every non-empty point, each linking to its runs (the charts' accessible equivalent). */
function PointTable({ trends, dim }: { trends: Trends; dim: TrendDim }) {
  const rows = trends.series.flatMap((s) => s.points.filter((p) => p.runs > 0).map((p) => ({ s, p })));
  if (rows.length === 0) return <p className="muted small">No finished runs in this window.</p>;
  return (
    <details>
      <summary>The points as a table ({rows.length})</summary>
      <div className="table-wrap">
        <table className="data" data-testid="trend-points">
          <thead>
            <tr>
              <th>{trends.step === 'hour' ? 'Hour' : 'Day'} (UTC)</th>
              <th>Series</th>
              <th className="num">Runs</th>
              <th className="num">p50 ms</th>
              <th className="num">p95 ms</th>
              <th className="num">Tokens</th>
              <th className="num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ s, p }) => (
              <tr key={`${s.value}-${p.from}`}>
                <td>
                  <a href={pointRunsHref(dim, s.value, p)} data-testid="point-link">
                    {label(p.from, trends.step)}
                  </a>
                </td>
                <td>{s.value || 'all runs'}</td>
                <td className="num">{p.runs}</td>
                <td className="num">{p.p50Ms === null ? '—' : Math.round(p.p50Ms)}</td>
                <td className="num">{p.p95Ms === null ? '—' : Math.round(p.p95Ms)}</td>
                <td className="num">
                  {p.inputTokens + p.outputTokens}
                  {p.unreportedCalls > 0 ? <span className="muted small"> ({p.unreportedCalls} calls unreported)</span> : null}
                </td>
                <td className="num">
                  ${p.costUsd.toFixed(4)}
                  {p.costUnknownRuns > 0 ? <span className="muted small"> + {p.costUnknownRuns} runs unpriced</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

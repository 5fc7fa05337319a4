'use client';
/**
 * Grouped bars: one group per setting, one bar per metric. The higher-is-better rates share one
 * chart; loop rate and mean input tokens (lower is better, on their own scales) get a small chart
 * each, so a loop rate of 0.05 is not lost among rates near 1. The legend lists bars in bar order.
 * With a finished suite's statistics each bar carries its 95% interval as an error bar (none on the
 * deterministic fake model, whose intervals have zero width).
 */
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SuiteStatistics } from '@/lib/eval/browser';
import { errorKey, withErrorBars } from '@/lib/charts/matrix-stats';
import { groupedBarData, LOWER_CHART_METRICS, metricLabel, RATE_CHART_METRICS, wrapLabel, type SettingMetrics } from '@/lib/charts/matrix-view';

/** Pixels per character of an 11 px tick label (system sans-serif, with room to spare); scaled for other sizes. */
const TICK_CHAR_PX = 6.6;
const TICK_LINE_PX = 13;

/**
 * Every setting's label, wrapped to the width of its bar group: recharts hid labels that overlapped
 * (ambiguous_tool_desc on the small charts at 1400 px, three of five groups at 390 px).
 */
function SettingTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown }; width?: number | string; visibleTicksCount?: number }) {
  const x = Number(props.x ?? 0);
  const y = Number(props.y ?? 0);
  const groups = Math.max(1, props.visibleTicksCount ?? 1);
  const perGroup = Number(props.width ?? 0) / groups;
  // A phone's narrow groups get a slightly smaller type rather than labels running into each other.
  const size = perGroup < 60 ? 9 : perGroup < 72 ? 9.5 : 11;
  const lines = wrapLabel(String(props.payload?.value ?? ''), Math.max(4, Math.floor((perGroup - 4) / ((TICK_CHAR_PX * size) / 11))));
  return (
    <text x={x} y={y + 4} textAnchor="middle" fontSize={size} className="recharts-cartesian-axis-tick-value setting-tick">
      {lines.map((line, i) => (
        <tspan key={i} x={x} dy={i === 0 ? '0.71em' : (TICK_LINE_PX * size) / 11}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

// Colour-blind-safe palette (Okabe–Ito).
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00'];

function Chart({ settings, metrics, unit, testId, small, stats }: { settings: readonly SettingMetrics[]; metrics: readonly string[]; unit: 'rate' | 'count'; testId: string; small?: boolean; stats?: SuiteStatistics | null }) {
  const bars = stats !== null && stats !== undefined && !stats.deterministic;
  const data = bars ? withErrorBars(groupedBarData(settings, metrics), stats, metrics) : groupedBarData(settings, metrics);
  return (
    <div className={`chart-box${small ? ' small' : ''}`} data-testid={testId} data-error-bars={bars ? 'true' : 'false'}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
          <CartesianGrid stroke="#e5e9f0" vertical={false} />
          <XAxis dataKey="setting" interval={0} tick={<SettingTick />} height={small ? 44 : 48} />
          {/* Narrow axes leave the bar groups room to label every setting on a phone. */}
          {unit === 'rate' ? <YAxis domain={[0, 1]} tickCount={6} width={34} tick={{ fontSize: 11 }} /> : <YAxis width={44} tick={{ fontSize: 11 }} />}
          <Tooltip formatter={(v) => (typeof v === 'number' ? (unit === 'rate' ? v.toFixed(2) : v.toFixed(0)) : String(v))} />
          {/* Recharts 3 sorts legend items by name unless told not to; keep them in bar order. */}
          <Legend itemSorter={null} />
          {metrics.map((m, i) => (
            <Bar key={m} dataKey={m} name={metricLabel(m)} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false}>
              {bars ? <ErrorBar dataKey={errorKey(m)} width={4} strokeWidth={1.5} stroke="currentColor" direction="y" /> : null}
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function MatrixBarChart({ settings, stats = null }: { settings: readonly SettingMetrics[]; stats?: SuiteStatistics | null }) {
  return (
    <>
      <h3 style={{ marginTop: 0 }}>Rates (higher is better)</h3>
      <Chart settings={settings} metrics={RATE_CHART_METRICS} unit="rate" testId="matrix-chart" stats={stats} />
      <div className="grid-2">
        {LOWER_CHART_METRICS.map((m) => (
          <div key={m}>
            <h3>{metricLabel(m)} (lower is better)</h3>
            <Chart settings={settings} metrics={[m]} unit={m === 'loop_rate' ? 'rate' : 'count'} testId={`matrix-chart-${m}`} small stats={stats} />
          </div>
        ))}
      </div>
    </>
  );
}

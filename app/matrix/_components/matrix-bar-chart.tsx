'use client';
/**
 * Grouped bars: one group per setting, one bar per metric. The higher-is-better rates share one
 * chart; loop rate and mean input tokens (lower is better, on their own scales) get a small chart
 * each, so a loop rate of 0.05 is not lost among rates near 1. The legend lists bars in bar order.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { groupedBarData, LOWER_CHART_METRICS, metricLabel, RATE_CHART_METRICS, type SettingMetrics } from '@/lib/charts/matrix-view';

// Colour-blind-safe palette (Okabe–Ito).
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00'];

function Chart({ settings, metrics, unit, testId, small }: { settings: readonly SettingMetrics[]; metrics: readonly string[]; unit: 'rate' | 'count'; testId: string; small?: boolean }) {
  const data = groupedBarData(settings, metrics);
  return (
    <div className={`chart-box${small ? ' small' : ''}`} data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 10, right: 20, bottom: 5, left: 0 }}>
          <CartesianGrid stroke="#e5e9f0" vertical={false} />
          <XAxis dataKey="setting" tick={{ fontSize: 12 }} />
          {unit === 'rate' ? <YAxis domain={[0, 1]} tickCount={6} /> : <YAxis />}
          <Tooltip formatter={(v) => (typeof v === 'number' ? (unit === 'rate' ? v.toFixed(2) : v.toFixed(0)) : String(v))} />
          {/* Recharts 3 sorts legend items by name unless told not to; keep them in bar order. */}
          <Legend itemSorter={null} />
          {metrics.map((m, i) => (
            <Bar key={m} dataKey={m} name={metricLabel(m)} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function MatrixBarChart({ settings }: { settings: readonly SettingMetrics[] }) {
  return (
    <>
      <h3 style={{ marginTop: 0 }}>Rates (higher is better)</h3>
      <Chart settings={settings} metrics={RATE_CHART_METRICS} unit="rate" testId="matrix-chart" />
      <div className="grid-2">
        {LOWER_CHART_METRICS.map((m) => (
          <div key={m}>
            <h3>{metricLabel(m)} (lower is better)</h3>
            <Chart settings={settings} metrics={[m]} unit={m === 'loop_rate' ? 'rate' : 'count'} testId={`matrix-chart-${m}`} small />
          </div>
        ))}
      </div>
    </>
  );
}

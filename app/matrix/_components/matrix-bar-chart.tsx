'use client';
/** Grouped bars: one group per setting, one bar per gate metric (all rates in [0, 1]). */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_METRICS, groupedBarData, metricLabel, type SettingMetrics } from '@/lib/charts/matrix-view';

// Colour-blind-safe palette (Okabe–Ito).
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00'];

export function MatrixBarChart({ settings }: { settings: readonly SettingMetrics[] }) {
  const data = groupedBarData(settings);
  return (
    <div className="chart-box" data-testid="matrix-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 10, right: 20, bottom: 5, left: 0 }}>
          <CartesianGrid stroke="#e5e9f0" vertical={false} />
          <XAxis dataKey="setting" tick={{ fontSize: 12 }} />
          <YAxis domain={[0, 1]} tickCount={6} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(2) : String(v))} />
          <Legend />
          {CHART_METRICS.map((m, i) => (
            <Bar key={m} dataKey={m} name={metricLabel(m)} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

'use client';
/**
 * Input tokens of each model call (bars, left axis) and the running total against the token budget
 * (line, right axis): on one axis the budget set the scale and the bars stood 2% tall. The current
 * call's marker is drawn in the text colour, so it shows on the dark theme too.
 */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { tokenAxes, type TokenPoint } from '@/lib/charts/replay-timeline';

export function TokenChart({ series, budget, currentCall }: { series: TokenPoint[]; budget: number | null; currentCall: number | null }) {
  if (series.length === 0) return <p className="muted small">The run made no model calls.</p>;
  const axes = tokenAxes(series, budget);
  return (
    <div className="chart-box small" data-testid="token-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={series} margin={{ top: 10, right: 10, bottom: 5, left: 10 }}>
          <CartesianGrid stroke="#e5e9f0" />
          <XAxis dataKey="call" label={{ value: 'model call', position: 'insideBottomRight', offset: -2 }} />
          <YAxis yAxisId="call" domain={axes.perCall} tick={{ fontSize: 11 }} />
          <YAxis yAxisId="total" orientation="right" domain={axes.total} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend />
          <Bar yAxisId="call" dataKey="inputTokens" name="input tokens (left axis)" fill="#1d4ed8" isAnimationActive={false} />
          <Line yAxisId="total" dataKey="cumulativeTokens" name="used so far (right axis)" stroke="#b45309" dot={series.length < 60} isAnimationActive={false} />
          {budget !== null ? (
            <ReferenceLine yAxisId="total" y={budget} stroke="#dc2626" strokeDasharray="6 3" label={{ value: `budget ${budget.toLocaleString('en')}`, fill: 'currentColor', position: 'insideTopLeft', fontSize: 11 }} />
          ) : null}
          {currentCall !== null ? <ReferenceLine yAxisId="call" x={currentCall} stroke="currentColor" strokeWidth={2} className="current-call-marker" /> : null}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

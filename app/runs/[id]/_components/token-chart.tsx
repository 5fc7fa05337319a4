'use client';
/**
 * Input tokens of each model call (bars, left axis) and the running total against the token budget
 * (line, right axis): on one axis the budget set the scale and the bars stood 2% tall. The current
 * call's marker is drawn in the text colour, so it shows on the dark theme too. A run of more calls
 * than the chart can show is drawn in groups of calls (lib/charts/token-series-thin.ts), and says so.
 */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useMemo } from 'react';
import { tokenAxes, type TokenPoint } from '@/lib/charts/replay-timeline';
import { thinTokenSeries, thinnedCall } from '@/lib/charts/token-series-thin';

export function TokenChart({ series, budget, currentCall }: { series: TokenPoint[]; budget: number | null; currentCall: number | null }) {
  const thin = useMemo(() => thinTokenSeries(series), [series]);
  if (series.length === 0) return <p className="muted small">The run made no model calls.</p>;
  const axes = tokenAxes(series, budget);
  const marked = thinnedCall(thin, currentCall);
  const points = thin.points;
  return (
    <>
      {thin.perPoint > 1 ? (
        <p className="small muted" data-testid="token-chart-grouped">
          {series.length.toLocaleString('en')} model calls, drawn in groups of {thin.perPoint}: each bar is the group&apos;s largest call, the line the total at its last call.
        </p>
      ) : null}
      <div className="chart-box small" data-testid="token-chart">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 10, right: 10, bottom: 5, left: 10 }}>
            <CartesianGrid stroke="#e5e9f0" />
            <XAxis dataKey="call" label={{ value: 'model call', position: 'insideBottomRight', offset: -2 }} />
            <YAxis yAxisId="call" domain={axes.perCall} tick={{ fontSize: 11 }} />
            <YAxis yAxisId="total" orientation="right" domain={axes.total} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend />
            <Bar yAxisId="call" dataKey="inputTokens" name="input tokens (left axis)" fill="#1d4ed8" isAnimationActive={false} />
            <Line yAxisId="total" dataKey="cumulativeTokens" name="used so far (right axis)" stroke="#b45309" dot={points.length < 60} isAnimationActive={false} />
            {budget !== null ? (
              <ReferenceLine yAxisId="total" y={budget} stroke="#dc2626" strokeDasharray="6 3" label={{ value: `budget ${budget.toLocaleString('en')}`, fill: 'currentColor', position: 'insideTopLeft', fontSize: 11 }} />
            ) : null}
            {marked !== null ? <ReferenceLine yAxisId="call" x={marked} stroke="currentColor" strokeWidth={2} className="current-call-marker" /> : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}

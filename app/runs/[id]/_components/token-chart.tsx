'use client';
/** Input tokens of each model call (bars) and the running total (line) against the token budget. */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TokenPoint } from '@/lib/charts/replay-timeline';

export function TokenChart({ series, budget, currentCall }: { series: TokenPoint[]; budget: number | null; currentCall: number | null }) {
  if (series.length === 0) return <p className="muted small">The run made no model calls.</p>;
  const max = Math.max(...series.map((p) => p.cumulativeTokens), budget ?? 0);
  return (
    <div className="chart-box small" data-testid="token-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={series} margin={{ top: 10, right: 20, bottom: 5, left: 10 }}>
          <CartesianGrid stroke="#e5e9f0" />
          <XAxis dataKey="call" label={{ value: 'model call', position: 'insideBottomRight', offset: -2 }} />
          <YAxis domain={[0, Math.ceil(max * 1.05)]} />
          <Tooltip />
          <Legend />
          <Bar dataKey="inputTokens" name="input tokens" fill="#1d4ed8" isAnimationActive={false} />
          <Line dataKey="cumulativeTokens" name="tokens used so far" stroke="#8a4b00" dot={series.length < 60} isAnimationActive={false} />
          {budget !== null ? <ReferenceLine y={budget} stroke="#a11a1a" strokeDasharray="6 3" label={{ value: `budget ${budget}`, fill: '#a11a1a', position: 'insideTopLeft' }} /> : null}
          {currentCall !== null ? <ReferenceLine x={currentCall} stroke="#0f172a" strokeWidth={2} /> : null}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

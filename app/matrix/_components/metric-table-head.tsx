/** The header row of a per-setting metrics table: "Setting" and one numeric column per gate metric. */
import { metricLabel, TABLE_METRICS } from '@/lib/charts/matrix-view';

export function MetricTableHead() {
  return (
    <thead>
      <tr>
        <th>Setting</th>
        {TABLE_METRICS.map((m) => (
          <th key={m} className="num">
            {metricLabel(m)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A run's or a suite's cost as the pages show it. A model without a price has cost_known false: that
 * is shown as unknown, never as $0 (which would read as free).
 */
export function formatCost(usd: number | null, known: boolean): string {
  if (!known || usd === null) return 'cost unknown';
  if (usd === 0) return '$0';
  // Live calls cost fractions of a cent: keep enough digits to tell runs apart.
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(2)}`;
}

/** A suite's cost: the sum of its runs', unknown (null) when any run's is. */
export function sumCosts(runs: readonly { costUsd: number | null; costKnown: boolean }[]): { usd: number | null; known: boolean } {
  const known = runs.every((r) => r.costKnown && r.costUsd !== null);
  return { usd: known ? runs.reduce((a, r) => a + (r.costUsd ?? 0), 0) : null, known };
}

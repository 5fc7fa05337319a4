/**
 * A run's or a suite's cost as the pages show it. A model without a price has cost_known false: that
 * is shown as unknown, never as $0 (which would read as free). Calls whose usage was not reported
 * make the figure a lower bound, and it says so: "≥ $0.0012, 1 call unreported" (issue 40).
 */
export function formatCost(usd: number | null, known: boolean, unreportedCalls = 0): string {
  if (!known || usd === null) return 'cost unknown';
  const figure = usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(2)}`;
  // Live calls cost fractions of a cent: keep enough digits to tell runs apart.
  return unreportedCalls > 0 ? `≥ ${figure}, ${unreportedText(unreportedCalls)}` : figure;
}

/** "1 call unreported", "3 calls unreported". */
export function unreportedText(calls: number): string {
  return `${calls} call${calls === 1 ? '' : 's'} unreported`;
}

/**
 * Tokens as the pages show them: the figure; "≥ figure, N calls unreported" when some calls did not
 * report usage; "not reported" when none of them did (unknown, never 0).
 */
export function formatTokens(tokens: number | null, unreportedCalls = 0, allUnreported = false): string {
  if (tokens === null || allUnreported) return 'not reported';
  const figure = `${tokens.toLocaleString('en-US')} token${tokens === 1 ? '' : 's'}`;
  return unreportedCalls > 0 ? `≥ ${figure}, ${unreportedText(unreportedCalls)}` : figure;
}

/** A suite's cost: the sum of its runs', unknown (null) when any run's is; `unreportedCalls` summed (a lower bound when > 0). */
export function sumCosts(runs: readonly { costUsd: number | null; costKnown: boolean; unreportedCalls?: number }[]): {
  usd: number | null;
  known: boolean;
  unreportedCalls: number;
} {
  const known = runs.every((r) => r.costKnown && r.costUsd !== null);
  const unreportedCalls = runs.reduce((n, r) => n + (r.unreportedCalls ?? 0), 0);
  return { usd: known ? runs.reduce((a, r) => a + (r.costUsd ?? 0), 0) : null, known, unreportedCalls };
}

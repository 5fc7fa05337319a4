/**
 * Correction for comparing many cells at once (Holm's step-down): controls the chance of calling
 * any unchanged cell different at 5%, uniformly more powerful than Bonferroni.
 */

/** Holm-adjusted p-values, in the input's order. */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}

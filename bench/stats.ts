/** Small statistics for benchmark samples (milliseconds), and the figure every section prints. */

/** One printed figure: a value, its unit, and the target the issues name for it. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  detail?: string;
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export const round = (x: number, digits = 2): number => Number(x.toFixed(digits));

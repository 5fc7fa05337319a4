/**
 * How long a watch drain holds the runs it took (issue 37): past it, another drain may take them over
 * (the holder died or hangs). STOCKROOM_WATCH_CLAIM_MS sets it; lib/startup/env.ts checks it with this
 * parser at start-up, which is why this file imports nothing.
 */

/** The default hold: longer than any batch of runs takes to score, short enough that a dead worker's runs are not stuck long. */
export const WATCH_CLAIM_MS = 5 * 60_000;

/** What STOCKROOM_WATCH_CLAIM_MS accepts. */
export const WATCH_CLAIM_RANGE = { min: 1_000, max: 3_600_000 } as const;

/** The hold from the environment (default WATCH_CLAIM_MS); a bad value throws naming the variable. */
export function watchClaimMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.STOCKROOM_WATCH_CLAIM_MS?.trim();
  if (!raw) return WATCH_CLAIM_MS;
  const ms = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(ms >= WATCH_CLAIM_RANGE.min && ms <= WATCH_CLAIM_RANGE.max)) {
    throw new Error(`STOCKROOM_WATCH_CLAIM_MS must be an integer from ${WATCH_CLAIM_RANGE.min} to ${WATCH_CLAIM_RANGE.max} (ms), not '${raw}'`);
  }
  return ms;
}

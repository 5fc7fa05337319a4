/**
 * What the progress line says about the time left, from the first second of a suite: the rate at
 * which cases have been stored once there is one; before that, how long the last finished suite
 * like it took; with neither, that there is no estimate yet and how long a first run can take.
 */
import { formatEta } from './eta';

/** How long a first matrix on the bundled dataset can take: 3.6–4.1 s idle and 41.6 s on a busy 2-core machine (issue 27); 0.9–2 s at a load of 6–9 since issue 23's SQLite case store (`npm run bench -- --only firstdemo`). */
export const FIRST_RUN_RANGE = 'from a few seconds on an idle machine to about a minute on a busy one';

export function suiteEstimate(input: { etaMs: number | null; previousMs: number | null; elapsedMs: number; active: boolean }): string | null {
  if (!input.active) return null;
  if (input.etaMs !== null) return formatEta(input.etaMs);
  if (input.previousMs !== null) {
    const took = Math.max(1, Math.round(input.previousMs / 1000));
    const left = input.previousMs - input.elapsedMs;
    return left > 1000
      ? `${formatEta(left)}, judging by the last run like it (${took} s)`
      : `taking longer than the last run like it (${took} s)`;
  }
  return `no estimate until the first runs are stored; a first run takes ${FIRST_RUN_RANGE}`;
}

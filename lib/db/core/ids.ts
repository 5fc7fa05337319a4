import { randomBytes } from 'node:crypto';

/**
 * A new id that sorts by creation time (12 hex digits of milliseconds, then 16 random hex digits),
 * so the id is a stable, roughly chronological tie-breaker for keyset pagination.
 */
export function newId(now: number = Date.now()): string {
  return now.toString(16).padStart(12, '0') + randomBytes(8).toString('hex');
}

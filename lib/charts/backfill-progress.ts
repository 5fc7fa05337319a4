/** How far an evaluator backfill got, in words (the evaluators page; issue 37). */
export interface BackfillCounts {
  total: number | null;
  scanned: number;
  scored: number;
  skipped: number;
  queued: number;
}

export function backfillProgress(b: BackfillCounts): string {
  const parts = [b.total === null ? 'counting the runs…' : `${b.scanned} of ${b.total} runs`, `${b.scored} scored`];
  if (b.skipped > 0) parts.push(`${b.skipped} skipped (scored by this version already, or outside a judge's sample)`);
  if (b.queued > 0) parts.push(`${b.queued} never rolled up, handed to the watch job`);
  return parts.join(' · ');
}

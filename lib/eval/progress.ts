/**
 * A one-line progress bar for long evaluations. Pure formatting: the CLI decides where (and
 * whether) to draw it.
 */

/** `[#####-----]  25/50 G025 label`, a fixed-width bar of `width` cells. */
export function formatProgress(done: number, total: number, label: string, width = 30): string {
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(share * width);
  const count = `${String(done).padStart(String(total).length)}/${total}`;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${count} ${label}`;
}

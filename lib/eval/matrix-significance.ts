/**
 * The matrix's significance table for the CLI: each weakness setting's delta against `none` with its
 * paired interval, the test, the Holm-adjusted p and a mark; null for a deterministic model, whose
 * deltas are exact (the published table already shows them).
 */
import { deltaMark, formatInterval, VERDICT_WORDS } from './interval-format';
import type { PairedDelta } from './paired-deltas';

const signed = (x: number): string => `${x > 0 ? '+' : ''}${x.toFixed(Math.abs(x) >= 10 ? 1 : 3)}`;

export function formatPairedDeltas(paired: Readonly<Record<string, Readonly<Record<string, PairedDelta>>>>, epochs: number): string | null {
  const cells = Object.values(paired).flatMap((row) => Object.values(row));
  if (cells.length === 0 || cells.every((c) => c.test === 'none_deterministic')) return null;
  const lines = [
    `deltas against none, paired by case (${epochs} epoch(s)); 95% paired bootstrap intervals; p Holm-adjusted over ${cells.length} cells`,
    `marks: * distinguishable from none, ~ not distinguishable from none, = unchanged`,
    '',
    '| flags | metric | delta | interval | test | p (adj.) | verdict | epochs for 80% power |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [setting, row] of Object.entries(paired)) {
    for (const [metric, d] of Object.entries(row)) {
      lines.push(
        `| ${setting} | ${metric} | ${signed(d.delta)}${deltaMark(d)} | ${formatInterval(d)} | ${d.test} | ${d.p_adjusted ?? '—'} | ${VERDICT_WORDS[d.verdict]} | ${d.epochs_for_80_power ?? '—'} |`,
      );
    }
  }
  return lines.join('\n');
}

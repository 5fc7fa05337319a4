/**
 * Cohen's kappa written out the textbook way for any number of categories (observed agreement from
 * the diagonal of the contingency table, chance agreement from its marginals): an independent
 * computation the tests compare lib/eval/agreement.ts with.
 */
export function referenceKappa(judge: readonly string[], human: readonly string[]): { po: number; kappa: number | null } {
  const n = judge.length;
  const categories = [...new Set([...judge, ...human])];
  const table = new Map<string, number>();
  for (let i = 0; i < n; i++) table.set(`${judge[i]}|${human[i]}`, (table.get(`${judge[i]}|${human[i]}`) ?? 0) + 1);
  const cell = (a: string, b: string) => table.get(`${a}|${b}`) ?? 0;
  const po = categories.reduce((sum, c) => sum + cell(c, c), 0) / n;
  const pe = categories.reduce((sum, c) => {
    const row = categories.reduce((s, b) => s + cell(c, b), 0);
    const col = categories.reduce((s, a) => s + cell(a, c), 0);
    return sum + (row / n) * (col / n);
  }, 0);
  return { po, kappa: Math.abs(1 - pe) < 1e-12 ? null : (po - pe) / (1 - pe) };
}

/**
 * Two runs' evaluator scores side by side (the compare page, issue 37): one row per evaluator name
 * either run was scored by, each side its newest version's score, null where that run has none.
 */
export interface ScoreLike {
  evaluatorName: string;
  evaluatorVersion: number;
  score: number | null;
}

export interface ScoreCompareRow {
  evaluator: string;
  a: number | null;
  b: number | null;
  /** b - a, when both are scored. */
  delta: number | null;
}

const newest = (scores: readonly ScoreLike[]) => {
  const out = new Map<string, ScoreLike>();
  for (const s of scores) if ((out.get(s.evaluatorName)?.evaluatorVersion ?? -1) <= s.evaluatorVersion) out.set(s.evaluatorName, s);
  return out;
};

export function compareScores(a: readonly ScoreLike[], b: readonly ScoreLike[]): ScoreCompareRow[] {
  const na = newest(a);
  const nb = newest(b);
  return [...new Set([...na.keys(), ...nb.keys()])].sort().map((evaluator) => {
    const sa = na.get(evaluator)?.score ?? null;
    const sb = nb.get(evaluator)?.score ?? null;
    return { evaluator, a: sa, b: sb, delta: sa !== null && sb !== null ? Math.round((sb - sa) * 10_000) / 10_000 : null };
  });
}

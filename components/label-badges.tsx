/** A run's or a step's current reviewer label as badges (verdict, category, score), with who gave it. */
export interface LabelView {
  id: string;
  step: number | null;
  verdict: string;
  category: string | null;
  score: number | null;
  comment: string;
  createdByName: string;
  createdAt: string;
}

export function LabelBadges({ label, testId }: { label: Pick<LabelView, 'verdict' | 'category' | 'score'> & Partial<Pick<LabelView, 'createdByName' | 'createdAt'>>; testId?: string }) {
  const tone = label.verdict === 'pass' ? 'good' : label.verdict === 'fail' ? 'bad' : 'info';
  return (
    <span className="row" style={{ display: 'inline-flex', gap: '0.25rem' }} data-testid={testId} title={label.createdByName ? `by ${label.createdByName} at ${label.createdAt}` : undefined}>
      <span className={`badge ${tone}`}>{label.verdict}</span>
      {label.category ? <span className="badge">{label.category}</span> : null}
      {label.score !== null ? <span className="badge">score {label.score}</span> : null}
    </span>
  );
}

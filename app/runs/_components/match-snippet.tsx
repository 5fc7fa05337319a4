import type { RunTextMatch } from '@/lib/db/runs/run-search';

const WHERE: Record<RunTextMatch['field'], string> = {
  question: 'in the question',
  answer: 'in the answer',
  'tool arguments': 'in the arguments of',
  'tool result': 'in the result of',
  'tool call': 'in a call to',
};

/** Where a text search matched a run, with the matched text marked (all of it rendered as text). */
export function MatchSnippet({ match }: { match: RunTextMatch }) {
  return (
    <div className="muted small" data-testid="match-snippet">
      <span>
        {WHERE[match.field]}
        {match.tool && match.field !== 'tool call' ? <code> {match.tool}</code> : null}
        {match.field === 'tool call' ? null : ': '}
      </span>
      <span className="mono wraps">
        {match.before}
        <mark>{match.match}</mark>
        {match.after}
      </span>
    </div>
  );
}

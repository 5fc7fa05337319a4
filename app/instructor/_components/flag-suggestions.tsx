'use client';
/** For each weakness flag, cases the tenant's newest matrix on this dataset shows it moving; one click sets the switch and the case. */
import Link from 'next/link';
import type { MatrixSuggestions } from '../load-suggestions';
import type { WeaknessFlag } from '@/lib/harness/config';

export function FlagSuggestions({ flags, suggestions, onPick }: { flags: readonly WeaknessFlag[]; suggestions: MatrixSuggestions | null; onPick: (flag: WeaknessFlag, caseId: string) => void }) {
  if (!suggestions) {
    return (
      <section className="panel" aria-labelledby="suggest-heading" data-testid="flag-suggestions">
        <h2 id="suggest-heading">Cases each switch moves</h2>
        <p className="muted">
          No matrix has run on this dataset yet, so there is nothing to suggest. <Link href="/matrix">Run the matrix</Link> once: this panel then
          lists, for each switch, cases whose scores it changes.
        </p>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="suggest-heading" data-testid="flag-suggestions">
      <h2 id="suggest-heading">Cases each switch moves</h2>
      <p className="small muted">
        From the{' '}
        <Link href={`/matrix?suite=${suggestions.suiteId}`}>
          matrix of {suggestions.finishedAt ? suggestions.finishedAt.replace('T', ' ').slice(0, 16) : 'this dataset'}
        </Link>
        : cases whose scores differ between no weakness and the switch. Pick one to set the switch and the case, then run it.
      </p>
      <div className="suggest-grid">
        {flags.map((flag) => (
          <div key={flag} data-suggest-flag={flag}>
            <h3 className="small mono">{flag}</h3>
            {(suggestions.byFlag[flag] ?? []).length === 0 ? (
              <p className="small muted">moved no case in that matrix</p>
            ) : (
              <ul className="plain">
                {suggestions.byFlag[flag]!.map((s) => (
                  <li key={s.caseId}>
                    <button type="button" className="small" onClick={() => onPick(flag, s.caseId)} data-testid="suggested-case" data-case={s.caseId}>
                      {s.caseId}
                    </button>{' '}
                    <span className="small">moves {s.moved.join(', ').toLowerCase()}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

/** What the matrix says about the chosen case: the flags it moves under, or that it moves under none. */
export function CaseMoveNote({ caseId, suggestions }: { caseId: string; suggestions: MatrixSuggestions | null }) {
  if (!suggestions || !caseId) return null;
  const flags = suggestions.movedBy[caseId];
  if (flags === undefined) return null;
  return (
    <p className="small" data-testid="case-move-note">
      {flags.length === 0
        ? `In the latest matrix, ${caseId} moves under no weakness flag: running it shows no difference. Pick a suggested case below.`
        : `In the latest matrix, ${caseId} moves under ${flags.join(', ')}.`}
    </p>
  );
}

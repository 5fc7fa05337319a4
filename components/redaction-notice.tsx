/**
 * What redaction at rest kept out of storage (issue 33) — of a run, or of an approval request and its
 * governed run: each class, how many values, and where (the question, a tool result at step 3, a
 * span, the proposal's arguments). The values themselves were never stored;
 * in the run they stand as `[REDACTED:class]` or, pseudonymised, `⟨class:…⟩`.
 */
import type { Redaction } from '@/lib/governance/redaction';

export function RedactionNotice({ redactions }: { redactions: readonly Redaction[] }) {
  if (redactions.length === 0) return null;
  const total = redactions.reduce((n, r) => n + r.count, 0);
  const classes = [...new Set(redactions.map((r) => r.class))];
  return (
    <section className="alert" role="note" aria-label="Redacted at rest" data-testid="redactions">
      <strong>
        {total} value{total === 1 ? '' : 's'} kept out of storage by the tenant&apos;s redaction ({classes.join(', ')}).
      </strong>
      <details>
        <summary>Where</summary>
        <ul className="small" style={{ overflowWrap: 'anywhere' }}>
          {redactions.map((r) => (
            <li key={`${r.where}-${r.class}`}>
              {r.where}: {r.count} {r.class}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

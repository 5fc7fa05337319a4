/** "ungoverned" on a run that ran without the governance policy (a governed run shows nothing extra). */
export function UngovernedBadge({ governed }: { governed: boolean }) {
  if (governed) return null;
  return (
    <span className="badge warn" data-testid="ungoverned" title="This run ran without the governance policy: no approvals, journal or evidence.">
      ungoverned
    </span>
  );
}

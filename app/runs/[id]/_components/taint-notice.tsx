/**
 * Where the run read planted instructions (issue 34): the step, the tool, which detector found it and
 * the planted text (as text, never markup), with a link that opens the replay at that step. From
 * there, in a governed run, every write waited for a reviewer.
 */
import type { RunTaint } from '@/lib/db/runs/runs-read';

export const detectorName = (d: RunTaint['detector']) => (d === 'quarantine' ? 'the quarantine detector' : 'the no_injection guardrail');

export function TaintNotice({ runId, taint, governed }: { runId: string; taint: RunTaint; governed: boolean }) {
  return (
    <div className="alert warn" role="note" data-testid="taint-notice">
      <strong>
        Tainted at step {taint.step}: an instruction planted in <span className="mono">{taint.tool}</span>
      </strong>{' '}
      ({detectorName(taint.detector)} flagged it).{' '}
      {governed ? 'From there every write waited for a reviewer, even where the policy allows it.' : 'This run was not governed, so nothing held its writes back.'}{' '}
      {/* A plain link: the replay on this page reads ?step= once, when it mounts, so a client-side navigation would not move it. */}
      <a href={`/runs/${runId}?step=${taint.step}`}>Open the replay at step {taint.step}</a>
      <blockquote className="small mono" data-testid="taint-excerpt">
        {taint.excerpt}
      </blockquote>
    </div>
  );
}

/**
 * A label's canonical digest: what its evidence event records, so a stored label edited afterwards
 * no longer matches the event (lib/db/review/labels.ts unverifiedLabels).
 */
import { canonicalDigest } from '../governance';
import type { LabelContent } from './labels';

/** SHA-256 of the label's canonical JSON: recorded in the evidence, recomputed to verify the stored row. */
export function labelDigest(label: LabelContent): string {
  return canonicalDigest({
    runId: label.runId,
    step: label.step,
    labelSetVersion: label.labelSetVersion,
    verdict: label.verdict,
    category: label.category,
    score: label.score,
    comment: label.comment,
    createdBy: label.createdBy,
    createdAt: label.createdAt,
  });
}

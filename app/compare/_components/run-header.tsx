/** One compared run's header: its question, ending, setting and labels. */
import Link from 'next/link';
import { TerminationBadge } from '@/components/termination-badge';
import { LabelBadges } from '@/components/label-badges';
import { UngovernedBadge } from '@/components/governance-badge';
import type { StoredRun } from '@/lib/db/runs/types';
import type { RunLabelDto } from '@/lib/db/review/labels';
import { currentLabels } from '@/lib/eval/labels';
import { countOf } from '@/lib/format/units';

/** The header of side `label` (A or B). */
export function RunHeader({ label, stored, labels }: { label: string; stored: StoredRun; labels: RunLabelDto[] }) {
  const current = currentLabels(labels).sort((x, y) => (x.step ?? -1) - (y.step ?? -1));
  return (
    <div className="panel">
      <h2 style={{ marginTop: 0 }}>
        {label}: <Link href={`/runs/${stored.id}`}>run {stored.id.slice(-8)}</Link>
      </h2>
      <p style={{ marginTop: 0 }}>{stored.run.query}</p>
      <div className="row small">
        <TerminationBadge reason={stored.run.terminationReason} />
        <UngovernedBadge governed={stored.meta.governed ?? false} />
        <span className="badge">setting: {stored.meta.setting}</span>
        {stored.run.caseId ? <span className="badge info">case {stored.run.caseId}</span> : null}
        <span className="muted">
          {countOf(stored.run.steps, 'step')} · {countOf(stored.run.usage.totalTokens, 'token')}
        </span>
      </div>
      {current.length > 0 ? (
        <div className="row small" data-testid={`compare-labels-${label}`}>
          {current.map((l) => (
            <span key={l.id}>
              {l.step === null ? 'run' : <a href={`#step-${l.step}`}>step {l.step}</a>}: <LabelBadges label={l} />
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

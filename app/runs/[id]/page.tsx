/** Replay of one stored run: header from the server, the step-by-step player on the client. */
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getRunSummary } from '@/lib/db/runs-read';
import { budgetFromConfig } from '@/lib/charts/replay-timeline';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { TerminationBadge } from '@/components/termination-badge';
import { DeleteRunButton } from '../_components/delete-run-button';
import { loadTimeline } from './load-timeline';
import { Replay } from './_components/replay';

export const dynamic = 'force-dynamic';

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const parsed = StoredIdSchema.safeParse((await params).id);
  if (!parsed.success) notFound();
  const run = await getRunSummary(parsed.data);
  if (!run) notFound();
  const timeline = await loadTimeline(run.id, run.trajectoryLength);
  const budget = budgetFromConfig(run.config);

  return (
    <main className="page">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1>
          Run <span className="mono">{run.id.slice(-8)}</span>
        </h1>
        <div className="row">
          <Link className="button" href={`/compare?a=${run.id}`}>
            Compare with…
          </Link>
          <DeleteRunButton runId={run.id} after="/runs" />
        </div>
      </div>
      <section className="panel" aria-label="Run summary">
        <p style={{ marginTop: 0, fontSize: '1.1rem' }} data-testid="run-query">
          {run.query}
        </p>
        <div className="row small">
          <TerminationBadge reason={run.terminationReason} />
          {run.caseId ? <span className="badge info">case {run.caseId}</span> : null}
          {run.category ? <span className="badge">{run.category}</span> : null}
          <span className="badge">setting: {run.setting}</span>
          <span className="badge">{run.transport}</span>
          <span className="muted">
            {run.datasetName} · {run.steps} steps · {run.modelCallCount} model calls · {run.toolCallCount} tool calls ·{' '}
            {run.totalTokens.toLocaleString('en')} tokens · {Math.round(run.durationMs)} ms
          </span>
        </div>
        <h3>Final answer</h3>
        <pre data-testid="final-answer">{run.finalAnswer}</pre>
      </section>
      <Replay runId={run.id} timeline={timeline} budget={budget} terminationReason={run.terminationReason} />
    </main>
  );
}

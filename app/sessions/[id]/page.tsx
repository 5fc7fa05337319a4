/**
 * A session of an imported application (`session.id` on its traces): its runs in the order they
 * started, each linking to its replay. Scoped to the caller's tenant: a session exists in a tenant only
 * through its runs there, so one with none (another tenant's, or no such session) is a 404, like a missing run.
 */
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireUser } from '@/lib/auth/page-guard';
import { listSessionRuns, SESSION_RUNS_LIMIT } from '@/lib/db/runs/runs-list';
import { CostText } from '@/components/cost-text';
import { RunningBadge } from '@/components/running-badge';
import { TerminationBadge } from '@/components/termination-badge';
import { formatDuration } from '@/lib/format/units';

export const dynamic = 'force-dynamic';

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const sessionId = decodeURIComponent((await params).id).slice(0, 256);
  const { items, nextCursor } = await listSessionRuns(user.tenant, sessionId);
  if (items.length === 0) notFound();
  const users = [...new Set(items.map((r) => r.traceUserId).filter((u): u is string => u !== null))];
  return (
    <main className="page">
      <h1>Session {sessionId}</h1>
      <p className="lede">
        The runs of this session, in the order they started{users.length > 0 ? ` (end user ${users.join(', ')})` : ''}.{' '}
        <Link href={`/runs?session=${encodeURIComponent(sessionId)}`}>Show them in the runs table</Link>.
      </p>
      <ol className="session-runs" data-testid="session-runs">
        {items.map((r) => (
          <li key={r.id}>
            <div className="row">
              <Link href={`/runs/${r.id}`}>{r.query}</Link>{' '}
              {r.status === 'running' ? <RunningBadge status={r.status} /> : <TerminationBadge reason={r.terminationReason} blocked={r.blockedCount} />}
            </div>
            <div className="small muted">
              {new Date(r.startedAt).toISOString().replace('T', ' ').slice(0, 19)} UTC · {r.modelId} · {r.steps} step(s) · {r.toolCallCount} tool call(s) · {r.totalTokens} tokens ·{' '}
              <CostText usd={r.costUsd} known={r.costKnown} unreportedCalls={r.unreportedCalls} /> · {formatDuration(r.durationMs)}
            </div>
          </li>
        ))}
      </ol>
      {nextCursor ? <p className="muted small">Only the first {SESSION_RUNS_LIMIT} runs are listed.</p> : null}
    </main>
  );
}

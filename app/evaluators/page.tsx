/**
 * The tenant's online evaluators (issue 37): each scores every finished run its filter takes, made here
 * or imported, as a job after the run is stored. Admins define and remove them; every member sees them
 * and follows a link to the runs each scored.
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { roleNote, RoleNote } from '@/components/role-note';
import { listEvaluators, type EvaluatorDto } from '@/lib/db/review/evaluators';
import { listBackfills } from '@/lib/db/review/evaluator-backfills';
import { EvaluatorForm, RemoveEvaluator } from './_components/evaluator-form';
import { BackfillForm, CancelBackfill } from './_components/backfills';
import { backfillProgress } from '@/lib/charts/backfill-progress';
import { RefreshWhileRunning } from '../runs/_components/refresh-while-running';

export const dynamic = 'force-dynamic';

function options(e: EvaluatorDto): string {
  const c = e.config;
  const parts: string[] = [];
  if (c.max !== undefined) parts.push(`at most ${c.max}`);
  if (c.detectors) parts.push(c.detectors.join(', '));
  if (c.judge) parts.push(`judge ${c.judge}, ${Math.round((c.sampleRate ?? 1) * 100)}% of runs${c.dailyCapUsd !== undefined ? `, at most $${c.dailyCapUsd}/day` : ''}`);
  return parts.join('; ') || '—';
}

function filterText(e: EvaluatorDto): string {
  const f = e.filter;
  const parts = [f.source ? (f.source === 'imported' ? 'imported' : 'made here') : null, f.modelId ? `model ${f.modelId}` : null, f.agent ? `agent ${f.agent}` : null, f.sessionId ? `session ${f.sessionId}` : null, f.tag ? `tagged ${f.tag}` : null];
  return parts.filter(Boolean).join(', ') || 'every finished run';
}

export default async function EvaluatorsPage() {
  const user = await requireUser();
  const admin = holdsRole(user.memberships, 'admin', user.tenant);
  const [evaluators, backfills] = await Promise.all([listEvaluators(user.tenant), listBackfills(user.tenant)]);
  return (
    <main className="page">
      <h1>Evaluators</h1>
      <p className="lede">
        Tenant {user.tenant}: each evaluator scores every finished run its filter takes, made here or imported over OTLP, in a background job
        after the run is stored. Scores (0 to 1, 1 is good) are shown in replay, in the runs list and in compare, beside the reviewers’ labels
        but apart from them. A judge grades a fixed share of runs, chosen by a hash of the run id, and stops for the day at its spend cap
        (a live judge whose model has no price spends an unknown amount that no cap in USD can hold). Suite runs are scored by their suite.
      </p>
      {admin ? <EvaluatorForm /> : <RoleNote text={roleNote('Defining evaluators', 'admin', user.roles)} />}
      <section className="panel" aria-labelledby="evaluators-heading">
        <h2 id="evaluators-heading">Evaluators</h2>
        {evaluators.length === 0 ? (
          <p data-testid="evaluators-empty">No evaluators yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="data" data-testid="evaluators-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Version</th>
                  <th>Kind</th>
                  <th>Options</th>
                  <th>Runs</th>
                  <th>State</th>
                  {admin ? <th>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {evaluators.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Link href={`/runs?evaluator=${encodeURIComponent(e.name)}`} prefetch={false}>
                        {e.name}
                      </Link>
                    </td>
                    <td>v{e.version}</td>
                    <td>{e.kind}</td>
                    <td>{options(e)}</td>
                    <td>{filterText(e)}</td>
                    <td>{e.enabled ? 'enabled' : 'disabled'}</td>
                    {admin ? (
                      <td>
                        <RemoveEvaluator id={e.id} name={e.name} />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="panel" aria-labelledby="backfills-heading">
        <h2 id="backfills-heading">Backfills</h2>
        <p className="muted">
          Runs an evaluator’s current version over the finished runs already stored that started in a window and that its filter takes, in
          background jobs. Each run is scored once per evaluator version: a run this version scored already is skipped, and a newer version’s
          score takes the older one’s place in the trends. Runs stored before evaluators existed are handed to the watch job, which scores them with
          every evaluator.
        </p>
        {admin ? <BackfillForm evaluators={evaluators.filter((e) => e.enabled)} now={new Date().toISOString()} /> : <RoleNote text={roleNote('Backfilling evaluators', 'admin', user.roles)} />}
        <RefreshWhileRunning active={backfills.some((b) => b.status === 'running')} />
        {backfills.length === 0 ? (
          <p data-testid="backfills-empty">No backfills yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="data" data-testid="backfills-table">
              <thead>
                <tr>
                  <th>Evaluator</th>
                  <th>Runs started</th>
                  <th>Progress</th>
                  <th>State</th>
                  {admin ? <th>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {backfills.map((b) => (
                  <tr key={b.id} data-testid="backfill-row">
                    <td>
                      {b.evaluatorName} v{b.evaluatorVersion}
                    </td>
                    <td className="small">
                      <time dateTime={b.from}>{b.from.slice(0, 16).replace('T', ' ')}</time> – <time dateTime={b.to}>{b.to.slice(0, 16).replace('T', ' ')}</time> UTC
                    </td>
                    <td>
                      <progress value={b.scanned} max={b.total ?? undefined} aria-label={`Progress of the backfill of ${b.evaluatorName}`} />{' '}
                      <span className="small" data-testid="backfill-progress">
                        {backfillProgress(b)}
                      </span>
                    </td>
                    <td data-testid="backfill-status">
                      {b.status}
                      {b.error ? <div className="small">{b.error}</div> : null}
                    </td>
                    {admin ? <td>{b.status === 'running' ? <CancelBackfill id={b.id} name={b.evaluatorName} /> : null}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}

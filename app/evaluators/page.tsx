/**
 * The tenant's online evaluators (issue 37): each scores every finished run its filter takes, made here
 * or imported, as a job after the run is stored. Admins define and remove them; every member sees them
 * and follows a link to the runs each scored.
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { roleNote, RoleNote } from '@/components/role-note';
import { listEvaluators, type EvaluatorDto } from '@/lib/db/evaluators';
import { EvaluatorForm, RemoveEvaluator } from './_components/evaluator-form';

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
  const evaluators = await listEvaluators(user.tenant);
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
    </main>
  );
}

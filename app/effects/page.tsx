/**
 * The effect journal: every write a governed run of the caller's tenant made, by operation key, with its state
 * (prepared → dispatched → committed | failed | unknown → reconciled_*). Filters by status, run and
 * tool; an `unknown` entry can be reconciled by an operator or admin (nothing is ever re-sent).
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { getDb } from '@/lib/db/core/client';
import { PrismaJournalStore } from '@/lib/db/governance/governance-journal';
import { governedRunIdsOfTenant } from '@/lib/db/governance/tenant-scope';
import { EFFECT_STATUSES } from '@/lib/governance/effect-journal';
import { EffectsQuerySchema } from '@/lib/schemas/governance';
import { ReconcileButton } from './_components/reconcile-button';
import { argumentsOfCalls, callKey } from '@/lib/db/governance/effect-arguments';
import { JsonTree } from '@/components/json-tree';

export const dynamic = 'force-dynamic';

const TONE: Record<string, string> = { committed: 'good', reconciled_committed: 'good', failed: 'bad', unknown: 'bad', reconciled_absent: 'warn' };

export default async function EffectsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const query = EffectsQuerySchema.parse(await searchParams);
  // Only the journal entries of the caller's tenant's governed runs.
  const entries = await new PrismaJournalStore(getDb().prisma).list({ ...query, runIds: await governedRunIdsOfTenant(user.tenant) });
  // The journal keeps a digest of the arguments; the run's stored call has the arguments themselves.
  const args = await argumentsOfCalls(entries);
  const canReconcile = holdsRole(user.memberships, 'operator', user.tenant);

  return (
    <main className="page">
      <h1>Effects</h1>
      <p className="lede">
        The effect journal of governed runs. A write runs at most once per operation key; one whose outcome is unknown (a crash or timeout
        after it was sent) is never retried: reconciliation asks the downstream ledger whether it happened.
      </p>
      <form className="panel row" method="get" action="/effects" aria-label="Filter effects" style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="e-status">Status</label>
          <select id="e-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">any</option>
            {EFFECT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="e-run">Run id</label>
          <input id="e-run" name="runId" defaultValue={query.runId ?? ''} size={30} />
        </div>
        <div className="field">
          <label htmlFor="e-tool">Tool</label>
          <input id="e-tool" name="tool" defaultValue={query.tool ?? ''} placeholder="create_restock_request" />
        </div>
        <button type="submit" className="primary">
          Apply
        </button>
        {query.status || query.runId || query.tool ? <Link href="/effects">Clear filters</Link> : null}
      </form>
      {entries.length === 0 ? (
        <p className="panel" data-testid="effects-empty">
          No journal entries{query.status || query.runId || query.tool ? ' match these filters' : ' yet: writes of governed runs appear here'}.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="effects-table">
            <thead>
              <tr>
                <th>Operation key</th>
                <th>Run</th>
                <th>Tool</th>
                <th>Arguments</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th>Digests</th>
                <th>Error</th>
                <th>Updated</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.operationKey}>
                  <td className="mono small" style={{ wordBreak: 'break-all', maxWidth: '22rem' }}>
                    {e.operationKey}
                  </td>
                  <td className="mono small">
                    <Link href={`/runs/${e.runId}`}>{e.runId.slice(-8)}</Link>
                  </td>
                  <td className="mono small">
                    {e.tool}@{e.toolVersion}
                  </td>
                  <td data-testid="effect-arguments">
                    <EntryArguments value={args.get(callKey(e.runId, e.callId))} tool={e.tool} />
                  </td>
                  <td>
                    <span className={`badge ${TONE[e.status] ?? ''}`}>{e.status}</span>
                  </td>
                  <td className="num">{e.attempts}</td>
                  <td className="mono small">
                    args {e.argumentsDigest.slice(0, 10)}
                    {e.resultDigest ? <div>result {e.resultDigest.slice(0, 10)}</div> : null}
                  </td>
                  <td className="small">{e.error ?? ''}</td>
                  <td className="nowrap small">{e.updatedAt.replace('T', ' ').slice(0, 19)}</td>
                  <td>{canReconcile ? <ReconcileButton operationKey={e.operationKey} status={e.status} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}

/** An entry's arguments as a collapsible tree; says so when the run did not store the call (yet). */
function EntryArguments({ value, tool }: { value: unknown; tool: string }) {
  if (value === undefined) return <span className="muted small">not stored with the run</span>;
  if (value !== null && typeof value === 'object') return <JsonTree value={value} label={`Arguments of ${tool}`} />;
  return <span className="mono small">{JSON.stringify(value)}</span>;
}

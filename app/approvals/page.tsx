/**
 * The approval queue: requests of the tenant the caller works in, by tab (pending, approved, denied,
 * expired, stale). Anyone with a role in a tenant sees its queue; only its reviewers can decide.
 */
import Link from 'next/link';
import { requireUser } from '@/lib/auth/page-guard';
import { getDb } from '@/lib/db/core/client';
import { listApprovals } from '@/lib/db/governance/governance-approvals';
import { redactionStatus } from '@/lib/db/governance/redaction-store';
import { userLabels } from '@/lib/db/governance/governance-members';
import { APPROVAL_STATUSES } from '@/lib/governance/approval';
import { ApprovalTabSchema } from '@/lib/schemas/governance';
import { ApprovalStatusBadge, effectiveStatus } from './_components/status-badge';
import { RowKeys } from '@/components/row-keys';
import { holdsRole } from '@/lib/auth/authorize';
import { QueueKeys } from './_components/queue-keys';
import { requestOutcomes } from '@/lib/runs/request-view';
import { byTimeLeft, quorumProgress } from '@/lib/governance/queue-order';
import { currentPolicy } from '@/lib/governance/current-policy';
import { escalationOf } from '@/lib/runs/notifications';
import { TimeLeft } from './_components/time-left';

export const dynamic = 'force-dynamic';

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const tab = ApprovalTabSchema.parse((await searchParams).tab);
  const now = new Date();
  const prisma = getDb().prisma;
  const listed = await listApprovals(prisma, tab, now, [user.tenant]);
  // Pending: the one that runs out first comes first; the other tabs stay newest first.
  const requests = tab === 'pending' ? byTimeLeft(listed) : listed;
  const policy = (() => {
    try {
      return currentPolicy().document;
    } catch {
      return null; // a broken policy file: the queue still shows, without escalations
    }
  })();
  const escalatedTo = (r: (typeof requests)[number]) => {
    const esc = policy && tab === 'pending' ? escalationOf(policy, r) : null;
    return esc && now >= esc.at ? esc.to : null;
  };
  // Who may decide a row from the keyboard: the same checks the action makes, so a key offers only what would be accepted.
  const whyNot = (r: (typeof requests)[number]): string | null =>
    effectiveStatus(r, now) !== 'pending'
      ? 'it is not pending'
      : r.proposal.actor === user.id
        ? 'you started this run (self-approval is refused)'
        : !holdsRole(user.memberships, r.approverRole, r.proposal.tenant)
          ? `it needs a ${r.approverRole}`
          : null;
  const [labels, outcomes, redaction] = await Promise.all([userLabels(prisma, requests.map((r) => r.proposal.actor)), requestOutcomes(requests, now), redactionStatus(prisma, user.tenant)]);

  return (
    <main className="page">
      <h1>Approvals</h1>
      <p className="lede">
        Calls a governed run may not make without a reviewer: each request binds the exact call (tool, arguments, tool schema, policy
        version, tenant, actor, expiry) by a digest. Tenant: {user.tenant}. Pending requests are sorted by time left, the soonest to
        expire first. j and k move through the requests, Enter opens one; on a pending request a approves and d denies (each asks for
        the reason first, Enter decides).
      </p>
      {redaction ? (
        <p className="small muted" data-testid="redaction-status">
          Redaction at rest: tenant {user.tenant} keeps {redaction.classes.length ? redaction.classes.join(', ') : 'nothing'} out of content stored since{' '}
          {redaction.since.replace('T', ' ').slice(0, 19)} UTC
          {redaction.storedBefore > 0
            ? `; ${redaction.storedBefore} run${redaction.storedBefore === 1 ? '' : 's'} stored before then keep their content as it was stored (an admin rewrites them with redact --rewrite).`
            : '; no run predates them.'}
        </p>
      ) : null}
      <nav className="row" aria-label="Approval status" role="tablist" style={{ marginBottom: '0.75rem' }}>
        {APPROVAL_STATUSES.map((s) => (
          <Link key={s} href={`/approvals?tab=${s}`} role="tab" aria-selected={s === tab} className={`button${s === tab ? ' primary' : ''}`}>
            {s}
          </Link>
        ))}
      </nav>
      {requests.length === 0 ? (
        <p className="panel" data-testid="approvals-empty">
          No {tab} requests.
        </p>
      ) : (
        <div className="table-wrap">
          <RowKeys table="approvals-table" />
          <QueueKeys table="approvals-table" />
          <table className="data" data-testid="approvals-table">
            <thead>
              <tr>
                <th>Request</th>
                <th>Call</th>
                <th>Rule</th>
                <th>Requested by</th>
                <th>Tenant</th>
                <th>Status</th>
                <th>Approvals</th>
                <th>Outcome</th>
                <th>Created</th>
                <th>{tab === 'pending' ? 'Time left' : 'Expires'}</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.id} data-request-id={r.id} data-request-label={r.id.slice(-8)} data-can-decide={String(whyNot(r) === null)} data-why-not={whyNot(r) ?? undefined}>
                  <td className="mono">
                    <Link href={`/approvals/${r.id}`} data-row-link>
                      {r.id.slice(-8)}
                    </Link>
                  </td>
                  <td>
                    <strong className="mono">{r.proposal.tool}</strong>
                    <div className="mono small truncate">{JSON.stringify(r.proposal.arguments)}</div>
                  </td>
                  <td className="small">{r.rule}</td>
                  <td className="small">{labels.get(r.proposal.actor) ?? r.proposal.actor}</td>
                  <td className="small">{r.proposal.tenant}</td>
                  <td>
                    <ApprovalStatusBadge status={effectiveStatus(r, now)} />
                  </td>
                  <td className="nowrap small" data-testid="quorum-progress">
                    {quorumProgress(r)}
                  </td>
                  <td className="small" data-testid="request-outcome">
                    {outcomes.get(r.id)?.text ?? ''}
                  </td>
                  <td className="nowrap small">{r.createdAt.replace('T', ' ').slice(0, 19)}</td>
                  <td className="nowrap small">
                    {tab === 'pending' ? <TimeLeft expiresAt={r.proposal.expiresAt} escalated={escalatedTo(r)} /> : r.proposal.expiresAt.replace('T', ' ').slice(0, 19)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}

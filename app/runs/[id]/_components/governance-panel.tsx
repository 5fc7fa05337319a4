/**
 * For a run started under the policy: whether it waits for approval (with a link to the request),
 * its approval requests and their outcomes, and any tool whose schema drifted since the run's pin.
 */
import Link from 'next/link';
import type { ApprovalRequest } from '@/lib/governance/approval';
import type { RequestOutcome } from '@/lib/governance/request-outcome';
import type { CurrentBinding } from '@/lib/runs/governed-binding';
import { DriftAlert } from '@/components/drift-alert';

export function GovernancePanel({
  paused,
  requests,
  outcomes = {},
  binding,
  policyVersion,
  lastError,
}: {
  paused: boolean;
  requests: ApprovalRequest[];
  /** Where each request is (by id), as every page says it. */
  outcomes?: Record<string, RequestOutcome>;
  binding: CurrentBinding | null;
  policyVersion: string;
  lastError?: string | null;
}) {
  const waitingFor = paused ? requests.find((r) => r.status === 'pending') : undefined;
  return (
    <section className="panel" aria-label="Governance" data-testid="governance-panel">
      <h2>Governance</h2>
      {paused && waitingFor ? (
        <p className="alert info" data-testid="waiting-banner">
          This run is <strong>waiting for approval</strong>
          {waitingFor ? (
            <>
              {' '}
              of <span className="mono">{waitingFor.proposal.tool}</span> {JSON.stringify(waitingFor.proposal.arguments)} (rule {waitingFor.rule}).{' '}
              <Link href={`/approvals/${waitingFor.id}`}>Open the approval request</Link>
            </>
          ) : (
            '.'
          )}
        </p>
      ) : null}
      {lastError ? (
        <p className="alert error" data-testid="governed-run-error">
          The last attempt to continue this run failed: {lastError}. It is retried automatically.
        </p>
      ) : null}
      <p className="small muted">
        Run under policy <span className="mono">{policyVersion.slice(0, 12)}</span>
        {binding && binding.policyVersion !== policyVersion ? ' (the policy file has changed since)' : ''}.
      </p>
      {binding ? <DriftAlert drifted={binding.drifted} lead="Tool schema drift since this run pinned its tools — calls to these tools are refused:" /> : null}
      {requests.length > 0 ? (
        <ul className="small">
          {requests.map((r) => (
            <li key={r.id}>
              <Link href={`/approvals/${r.id}`}>{r.proposal.tool}</Link> at step {r.step}:{' '}
              {outcomes[r.id] ? (
                <span className={`badge ${outcomes[r.id]!.tone}`} data-testid="governance-request-outcome">
                  {outcomes[r.id]!.text}
                </span>
              ) : (
                <span className="badge">{r.status}</span>
              )}
              {r.outcomeDetail && !outcomes[r.id] ? <span className="muted"> — {r.outcomeDetail}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * One approval request, in the order a reviewer decides: where the request is now and the decision
 * itself (the proposed call, the policy rule, any limit the tool's downstream would refuse it on,
 * approve / deny) above the fold; then the context to judge it (the product, its stock and reorder
 * point through the agent's own read-only tool, the open restocks of the SKU); then the decisions so
 * far, every field the digest binds (with its value now, so a change that would make the approval
 * stale shows before anyone decides) and the run's trajectory up to the pause.
 */
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { holdsRole } from '@/lib/auth/authorize';
import { currentBinding } from '@/lib/runs/governed-binding';
import { requireUser } from '@/lib/auth/page-guard';
import { displayJson } from '@/lib/charts/message-view';
import { getDb } from '@/lib/db/core/client';
import { approvalRedactions, getApprovalOrThrow, listApprovals } from '@/lib/db/governance/governance-approvals';
import { RedactionNotice } from '@/components/redaction-notice';
import { userLabels } from '@/lib/db/governance/governance-members';
import { findGovernedRun } from '@/lib/db/governance/governance-runs';
import { NotFoundError } from '@/lib/db/core/errors';
import type { ApprovalRequest } from '@/lib/governance/approval';
import { BOUND_FIELDS, proposalDigest, type BoundField } from '@/lib/governance/proposal';
import { isModelTurn, isToolRecord, type TrajectoryStep } from '@/lib/harness/types';
import { ApprovalIdSchema } from '@/lib/schemas/governance';
import { ApprovalStatusBadge, effectiveStatus } from '../_components/status-badge';
import { DecideForm } from './_components/decide-form';
import { DriftAlert } from '@/components/drift-alert';
import { isMcpApproval } from '@/lib/mcp/server/mcp-approvals';
import { requestOutcomes, reviewContext, type ReviewContext } from '@/lib/runs/request-view';
import { limitRange } from '@/lib/governance/tool-limits';
import { byTimeLeft, queueNeighbours, quorumProgress } from '@/lib/governance/queue-order';
import { TimeLeft } from '../_components/time-left';

export const dynamic = 'force-dynamic';

const FIELD_NOTES: Record<BoundField, string> = {
  actor: 'who the agent acts for',
  tenant: 'whose inventory it writes',
  tool: 'the tool to call',
  toolVersion: 'the tool’s version in the policy',
  schemaDigest: 'SHA-256 of the tool’s name, description and input schema',
  arguments: 'the exact arguments',
  policyVersion: 'SHA-256 of the policy file',
  expiresAt: 'after this the approval cannot be used',
};

async function load(id: string): Promise<ApprovalRequest | null> {
  try {
    return await getApprovalOrThrow(getDb().prisma, id);
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

function StepLine({ s }: { s: TrajectoryStep }) {
  if (isModelTurn(s)) {
    return (
      <li>
        <span className="badge">step {s.step}</span> model: {s.text ? <span>{s.text.slice(0, 200)}</span> : null}
        {s.toolCalls.map((c) => (
          <span key={c.toolUseId} className="mono small">
            {' '}
            → {c.name}({JSON.stringify(c.arguments)})
          </span>
        ))}
      </li>
    );
  }
  if (isToolRecord(s)) {
    return (
      <li>
        <span className="badge">step {s.step}</span> <strong className="mono">{s.name}</strong>{' '}
        <span className="small muted">{s.blockedBy ? `blocked by ${s.blockedBy}` : s.isError ? `error ${s.errorCode ?? ''}` : 'ok'}</span>
        {s.policy ? (
          <span className="small muted">
            {' '}
            · policy {s.policy.decision} ({s.policy.rule})
          </span>
        ) : null}
      </li>
    );
  }
  return (
    <li>
      <span className="badge">step {s.step}</span> {s.kind}
    </li>
  );
}

/** The product, its stock and reorder point (through the agent's get_stock_level), the declared limits and the open restocks of the SKU. */
function ContextPanel({ context, quantity }: { context: ReviewContext; quantity: number | null }) {
  const p = context.product;
  return (
    <section className="panel" aria-label="Context" data-testid="review-context">
      <h2>What the call would change</h2>
      {p === null ? (
        <p className="muted">The call names no product.</p>
      ) : 'error' in p ? (
        <p className="alert error" data-testid="product-context-error">
          The product could not be read: {p.error}.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="product-context">
            <caption className="small muted" style={{ captionSide: 'top', textAlign: 'left', padding: '0 0 0.4rem' }}>
              Read now through the agent’s own read-only tool (get_stock_level) on the run’s data.
            </caption>
            <tbody>
              <tr>
                <th scope="row">Product</th>
                <td>
                  {p.name ?? 'unknown'} <span className="mono small">{p.sku}</span>
                </td>
              </tr>
              <tr>
                <th scope="row">Current stock</th>
                <td data-testid="stock-level">
                  {p.stockLevel === null ? 'unknown' : `${p.stockLevel.toLocaleString('en')} ${p.unit ?? ''}`.trim()}
                  {p.stockLevel !== null && quantity !== null ? (
                    <span className="muted small"> · {(p.stockLevel + quantity).toLocaleString('en')} after this restock</span>
                  ) : null}
                </td>
              </tr>
              <tr>
                <th scope="row">Reorder point</th>
                <td data-testid="reorder-point">
                  {p.reorderPoint === null ? 'unknown' : p.reorderPoint.toLocaleString('en')}
                  {p.stockLevel !== null && p.reorderPoint !== null ? (
                    <span className="muted small"> · {p.stockLevel <= p.reorderPoint ? 'at or below it' : 'stock is above it'}</span>
                  ) : null}
                </td>
              </tr>
              <tr>
                <th scope="row">Supplier</th>
                <td>
                  {p.supplierName ?? 'unknown'}
                  {p.leadTimeDays !== null ? <span className="muted small"> · lead time {p.leadTimeDays} days</span> : null}
                </td>
              </tr>
              {p.location ? (
                <tr>
                  <th scope="row">Location</th>
                  <td>{p.location}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}
      <h3>Open requests for this product</h3>
      {context.openRestocks.length === 0 && context.otherPending.length === 0 ? (
        <p className="muted" data-testid="open-requests">
          None: no open restock in the ledger and no other pending request.
        </p>
      ) : (
        <ul className="small" data-testid="open-requests">
          {context.openRestocks.map((r) => (
            <li key={r.requestId + r.runId}>
              <span className="mono">{r.requestId}</span> · {r.quantity.toLocaleString('en')} units · {r.status.replace('_', ' ')} · run{' '}
              <Link href={`/runs/${r.runId}`} prefetch={false}>
                {r.runId.slice(-8)}
              </Link>
            </li>
          ))}
          {context.otherPending.map((r) => (
            <li key={r.id}>
              pending request{' '}
              <Link href={`/approvals/${r.id}`} prefetch={false}>
                {r.id.slice(-8)}
              </Link>{' '}
              · <span className="mono">{JSON.stringify(r.arguments)}</span>
            </li>
          ))}
        </ul>
      )}
      {context.limits.length > 0 ? (
        <>
          <h3>Limits the tool declares</h3>
          <ul className="small" data-testid="declared-limits">
            {context.limits.map((l, i) => (
              <li key={i}>
                <span className="mono">{l.argument}</span>: {limitRange(l)} — {l.enforcedBy}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export default async function ApprovalPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const parsed = ApprovalIdSchema.safeParse((await params).id);
  if (!parsed.success) notFound();
  const req = await load(parsed.data);
  // Someone working in another tenant does not learn that it exists.
  if (!req || req.proposal.tenant !== user.tenant) notFound();

  const prisma = getDb().prisma;
  // What the tenant's redaction kept out of the request and its run: reviewers see why values read [REDACTED:…].
  const redactions = await approvalRedactions(prisma, user.tenant, req.id);
  const now = new Date();
  const status = effectiveStatus(req, now);
  const labels = await userLabels(prisma, [req.proposal.actor, ...req.decisions.map((d) => d.reviewerId)]);
  const governed = await findGovernedRun(prisma, req.runId);
  const binding = await currentBinding(req.runId, req.proposal.tool);
  const digestOk = proposalDigest(req.proposal) === req.digest;
  const nowValue: Partial<Record<BoundField, string>> = binding
    ? { policyVersion: binding.policyVersion, toolVersion: binding.toolVersion, schemaDigest: binding.schemaDigest }
    : {};
  const changed = (Object.keys(nowValue) as BoundField[]).filter((f) => nowValue[f] !== req.proposal[f]);
  const upToPause = (governed?.result.trajectory ?? []).filter((s) => s.step < req.step || (s.step === req.step && s.kind === 'model_turn'));
  const isReviewer = holdsRole(user.memberships, req.approverRole, req.proposal.tenant);
  const isActor = user.id === req.proposal.actor;
  const open = status === 'pending';
  const [outcome, context, queue] = await Promise.all([
    requestOutcomes([req], now).then((m) => m.get(req.id) ?? null),
    isMcpApproval(req) ? Promise.resolve(null) : reviewContext(req, now),
    listApprovals(prisma, 'pending', now, [user.tenant]),
  ]);
  // j / k and the links below: the requests around this one in the queue's order (soonest to expire first).
  const { previous, next } = queueNeighbours(byTimeLeft(queue), req.id);
  // What the user asked the agent, beside what the agent proposes: was this call asked for?
  const spec = governed?.spec;
  const question = spec !== null && typeof spec === 'object' && !Array.isArray(spec) && typeof spec.query === 'string' ? spec.query : null;

  const quantity = typeof (req.proposal.arguments as { quantity?: unknown } | null)?.quantity === 'number' ? ((req.proposal.arguments as { quantity: number }).quantity) : null;
  return (
    <main className="page">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1>
          Approval request <span className="mono">{req.id.slice(-8)}</span>
        </h1>
        <ApprovalStatusBadge status={status} />
      </div>
      {outcome && !open ? (
        <p className={`alert ${outcome.tone === 'bad' ? 'error' : outcome.tone === 'warn' ? 'warn' : 'info'}`} data-testid="request-outcome">
          {outcome.text}
        </p>
      ) : null}

      <section className="panel" aria-label="Decision">
        <div className="question-and-proposal">
          <div>
            <h2>The user asked</h2>
            {question !== null ? (
              <blockquote data-testid="user-question">{question}</blockquote>
            ) : (
              <p className="muted" data-testid="user-question">
                {isMcpApproval(req) ? 'An outside client asked over MCP: no question was recorded.' : 'The run’s question is not stored.'}
              </p>
            )}
          </div>
          <div>
            <h2>
              The agent proposes <span className="mono">{req.proposal.tool}</span> for {labels.get(req.proposal.actor) ?? req.proposal.actor}
            </h2>
            <pre data-testid="proposal-arguments">{displayJson(req.proposal.arguments)}</pre>
          </div>
        </div>
        <RedactionNotice redactions={redactions} />
        <p>
          <strong>Policy rule</strong> <span className="mono" data-testid="policy-rule">{req.rule}</span>: {req.message}. Needs {req.quorum}{' '}
          {req.approverRole}
          {req.quorum === 1 ? '' : 's'} of tenant {req.proposal.tenant}.{' '}
          <span data-testid="quorum-progress">{quorumProgress(req)} so far</span>
          {open ? (
            <>
              {' · '}
              <TimeLeft expiresAt={req.proposal.expiresAt} escalated={null} />
            </>
          ) : null}
          .
        </p>
        {context && context.breaches.length > 0 ? (
          <p className="alert error" role="alert" data-testid="limit-breach">
            {open ? 'Before you approve: ' : ''}the tool’s downstream refuses this call whatever is decided —{' '}
            {context.breaches.map((b) => b.text).join('; ')}.
          </p>
        ) : null}
        {req.resumeError ? (
          <p className="alert error" data-testid="resume-error">
            Resuming the run after this decision failed: {req.resumeError}. It is retried automatically.
          </p>
        ) : null}
        {req.outcomeDetail ? (
          <p className="small muted" data-testid="outcome-detail">
            Outcome: {req.outcomeDetail}
          </p>
        ) : null}
        {isMcpApproval(req) ? (
          <p className="small" data-testid="mcp-origin">
            Asked over MCP by an outside client · requested {req.createdAt.replace('T', ' ').slice(0, 19)} UTC. Once approved, the client’s
            identical call is re-checked and applied once; no run is resumed.
          </p>
        ) : (
          <p className="small">
            Run{' '}
            {/* Not prefetched: the run is resuming, so a prefetched page would be stale, and the prefetch's render
                competes with the click's own. */}
            <Link href={`/runs/${req.runId}`} data-testid="replay-link" prefetch={false}>
              {req.runId.slice(-8)} (replay)
            </Link>{' '}
            · paused at step {req.step} · requested {req.createdAt.replace('T', ' ').slice(0, 19)} UTC · expires{' '}
            {req.proposal.expiresAt.replace('T', ' ').slice(0, 19)} UTC
          </p>
        )}
        {isReviewer ? (
          // Stays mounted after deciding, so the outcome message survives the refresh.
          <DecideForm id={req.id} open={open} self={isActor} previous={previous} next={next} />
        ) : open ? (
          <p className="alert info" data-testid="not-reviewer">
            Only a {req.approverRole} of tenant {req.proposal.tenant} can approve or deny this request.
          </p>
        ) : null}
      </section>

      <nav className="row small" aria-label="Other requests" data-testid="request-nav">
        {previous ? (
          <Link href={`/approvals/${previous}`} prefetch={false} rel="prev">
            ← Previous request (k)
          </Link>
        ) : null}
        {next ? (
          <Link href={`/approvals/${next}`} prefetch={false} rel="next">
            Next request (j) →
          </Link>
        ) : null}
        <Link href="/approvals" prefetch={false}>
          The queue
        </Link>
      </nav>

      {context ? <ContextPanel context={context} quantity={quantity} /> : null}

      <section className="panel" aria-label="Decisions">
        <h2>Decisions</h2>
        {req.decisions.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <ul data-testid="decisions">
            {req.decisions.map((d) => (
              <li key={d.reviewerId}>
                <strong>{labels.get(d.reviewerId) ?? d.reviewerId}</strong> {d.verdict === 'approve' ? 'approved' : 'denied'} at{' '}
                {d.at.replace('T', ' ').slice(0, 19)} UTC: “{d.reason}”
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="panel" aria-label="Bound fields">
        <h2>What an approval binds</h2>
        <p className="small muted">
          Digest (SHA-256 of the canonical JSON of these fields):{' '}
          <code data-testid="digest" style={{ wordBreak: 'break-all' }}>
            {req.digest}
          </code>{' '}
          {digestOk ? <span className="badge good">recomputed: matches</span> : <span className="badge bad">recomputed: does not match</span>}
        </p>
        {changed.length > 0 && open ? (
          <p className="alert error" role="alert" data-testid="binding-changed">
            Changed since the request: {changed.join(', ')}. An approval will be refused as stale when the run resumes.
          </p>
        ) : null}
        <div className="table-wrap">
          <table className="data" data-testid="bound-fields">
            <thead>
              <tr>
                <th>Field</th>
                <th>Bound value</th>
                <th>Now</th>
              </tr>
            </thead>
            <caption className="small muted" style={{ captionSide: 'bottom', textAlign: 'left', padding: '0.4rem 0.6rem' }}>
              “Now” re-reads what can drift before the run resumes — the policy version, the tool version and its schema digest. The
              other fields are part of the request itself and cannot change, so they have no “now” value.
            </caption>
            <tbody>
              {BOUND_FIELDS.map((f) => (
                <tr key={f}>
                  <td>
                    <strong className="mono">{f}</strong>
                    <div className="muted small">{FIELD_NOTES[f]}</div>
                  </td>
                  <td className="mono small" style={{ wordBreak: 'break-all' }}>
                    {f === 'actor' ? `${labels.get(req.proposal.actor) ?? '?'} (${req.proposal.actor})` : displayJson(req.proposal[f])}
                  </td>
                  <td className="small">
                    {nowValue[f] === undefined ? (
                      <span className="muted" data-testid="now-not-rechecked">
                        <span aria-hidden="true">— </span>fixed by the request; not re-checked
                      </span>
                    ) : nowValue[f] === req.proposal[f] ? (
                      <span className="badge good">unchanged</span>
                    ) : (
                      <span className="badge bad" title={nowValue[f]}>
                        changed: {nowValue[f]!.slice(0, 16)}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {binding ? <DriftAlert drifted={binding.drifted} lead="Tool schema drift since the run started (calls to these tools are refused):" /> : null}
      </section>

      {isMcpApproval(req) ? null : (
      <section className="panel" aria-label="Trajectory up to the pause">
        <h2>The run up to the pause</h2>
        {upToPause.length === 0 ? <p className="muted">No steps recorded before the pause.</p> : <ol className="stack small">{upToPause.map((s, i) => <StepLine key={i} s={s} />)}</ol>}
        <p className="small">
          <Link href={`/runs/${req.runId}`} prefetch={false}>
            Open the full replay
          </Link>
        </p>
      </section>
      )}

    </main>
  );
}

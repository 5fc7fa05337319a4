/**
 * The tenant's outgoing webhooks and email notifications (admins): add one, see each endpoint's delivery log (status,
 * attempts, response code, the last error) and send a delivery again. Other roles see no endpoints,
 * URLs or log; secrets are never shown after they are made.
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { roleNote, RoleNote } from '@/components/role-note';
import { getDb } from '@/lib/db/core/client';
import { listWebhookDeliveries, listWebhookEndpoints } from '@/lib/db/auth/webhooks';
import { AddEmailForm } from './_components/add-email-form';
import { AddWebhookForm } from './_components/add-webhook-form';
import { EndpointActions, RedeliverButton } from './_components/webhook-buttons';

export const dynamic = 'force-dynamic';

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  if (!holdsRole(user.memberships, 'admin', user.tenant)) {
    return (
      <main className="page">
        <h1>Webhooks</h1>
        <RoleNote text={roleNote('Seeing and changing webhooks', 'admin', user.roles)} />
      </main>
    );
  }
  const prisma = getDb().prisma;
  const endpoints = await listWebhookEndpoints(prisma, user.tenant);
  const asked = (await searchParams).endpoint;
  const selected = endpoints.find((e) => e.id === asked) ?? endpoints[0] ?? null;
  const log = selected ? await listWebhookDeliveries(prisma, user.tenant, selected.id) : [];
  return (
    <main className="page">
      <h1>Webhooks</h1>
      <p className="lede">
        Tenant {user.tenant}: approval requests, decisions, expiry warnings, escalations, expiries and runs that ended other than
        COMPLETED are posted here, signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature). Each carries a link
        that still needs a sign-in; none carries the call’s arguments. Email notifications get the same events over SMTP. Deliveries are
        jobs, retried with backoff.
      </p>
      <AddWebhookForm />
      <AddEmailForm />
      <section className="panel" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        {endpoints.length === 0 ? (
          <p data-testid="webhooks-empty">No webhooks yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="data" data-testid="webhooks-table">
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Format</th>
                  <th>Reaches</th>
                  <th>Events</th>
                  <th>State</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((e) => (
                  <tr key={e.id}>
                    <td className="mono small">
                      <Link href={`/webhooks?endpoint=${e.id}`} aria-current={e.id === selected?.id ? 'true' : undefined}>
                        {e.url}
                      </Link>
                      {e.smtp ? <div className="muted">via {e.smtp.host ? `${e.smtp.host}${e.smtp.port ? `:${e.smtp.port}` : ''}` : 'the operator’s SMTP relay'}</div> : null}
                    </td>
                    <td className="small">{e.format}</td>
                    <td className="small">{e.role}s</td>
                    <td className="small">{e.events.join(', ')}</td>
                    <td>{e.failing ? <span className="badge bad">failing</span> : <span className="badge">ok</span>}</td>
                    <td>
                      <EndpointActions id={e.id} url={e.url} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {selected ? (
        <section className="panel" aria-labelledby="log-heading">
          <h2 id="log-heading">
            Delivery log: <span className="mono">{selected.url}</span>
          </h2>
          {log.length === 0 ? (
            <p data-testid="deliveries-empty">Nothing sent yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="data" data-testid="deliveries-table">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th>Attempts</th>
                    <th>Response</th>
                    <th>Last error</th>
                    <th>Created</th>
                    <th>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {log.map((d) => (
                    <tr key={d.id}>
                      <td className="small">
                        {d.event}
                        <div className="mono small muted">{d.id}</div>
                      </td>
                      <td>
                        <span className={`badge${d.status === 'failed' ? ' bad' : d.status === 'delivered' ? ' good' : ''}`}>{d.status}</span>
                      </td>
                      <td className="small">{d.attempts}</td>
                      <td className="small">{d.responseCode ?? '—'}</td>
                      <td className="small">{d.lastError ?? ''}</td>
                      <td className="nowrap small">{d.createdAt.replace('T', ' ').slice(0, 19)}</td>
                      <td>{d.status === 'pending' ? null : <RedeliverButton id={d.id} />}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </main>
  );
}

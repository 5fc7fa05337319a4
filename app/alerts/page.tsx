/**
 * The tenant's alert rules on the hourly series and the alerts they fired (issue 37). Rules are
 * evaluated by the sweep; each fires once per breach window and is sent to the tenant's notification
 * endpoints that take `alert.fired` (Webhooks page). Admins add and remove rules; every member sees the history.
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { roleNote, RoleNote } from '@/components/role-note';
import { listAlertEvents, listAlertRules, type AlertRuleDto } from '@/lib/db/review/alerts';
import { AlertRuleForm, RemoveAlertRule } from './_components/alert-rule-form';

export const dynamic = 'force-dynamic';

function when(r: AlertRuleDto): string {
  if (r.kind === 'error_share') return `MODEL_ERROR over ${(r.threshold * 100).toFixed(1)}% of an hour’s runs`;
  if (r.kind === 'daily_cost') return `cost over $${r.threshold} in a day (UTC)`;
  return `mean ${r.evaluator ?? '?'} score down ${r.threshold} or more against the week before`;
}

export default async function AlertsPage() {
  const user = await requireUser();
  const admin = holdsRole(user.memberships, 'admin', user.tenant);
  const [rules, events] = await Promise.all([listAlertRules(user.tenant), listAlertEvents(user.tenant)]);
  return (
    <main className="page">
      <h1>Alerts</h1>
      <p className="lede">
        Tenant {user.tenant}: rules on the <Link href="/trends">trends</Link>, checked by the sweep. A rule fires once per hour (error share)
        or day (score drop, cost) it is breached, and each alert is sent to the <Link href="/webhooks">webhooks and email</Link> that take
        alert.fired.
      </p>
      {admin ? <AlertRuleForm /> : <RoleNote text={roleNote('Adding alert rules', 'admin', user.roles)} />}
      <section className="panel" aria-labelledby="rules-heading">
        <h2 id="rules-heading">Rules</h2>
        {rules.length === 0 ? (
          <p>No rules yet.</p>
        ) : (
          <table className="data" data-testid="alert-rules">
            <thead>
              <tr>
                <th>Name</th>
                <th>Fires when</th>
                {admin ? <th>Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td>{when(r)}</td>
                  {admin ? (
                    <td>
                      <RemoveAlertRule id={r.id} name={r.name} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        {events.length === 0 ? (
          <p data-testid="alerts-empty">No alert has fired.</p>
        ) : (
          <table className="data" data-testid="alert-history">
            <thead>
              <tr>
                <th>Fired (UTC)</th>
                <th>Rule</th>
                <th>Window</th>
                <th>What</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td>
                    <time dateTime={e.firedAt}>{e.firedAt.slice(0, 16).replace('T', ' ')}</time>
                  </td>
                  <td>{e.ruleName}</td>
                  <td>{e.window}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}

/**
 * The tenant's sessions (imported traces that carry a `session.id`), newest first, each linking to its
 * runs in order. Reached from the navigation; a session's own page is /sessions/<id>.
 */
import Link from 'next/link';
import { requireUser } from '@/lib/auth/page-guard';
import { listSessions, SESSIONS_LIST_LIMIT } from '@/lib/db/runs/sessions-list';

export const dynamic = 'force-dynamic';

const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

export default async function SessionsPage() {
  const user = await requireUser();
  const sessions = await listSessions(user.tenant);
  return (
    <main className="page">
      <h1>Sessions</h1>
      <p className="lede">
        Runs imported from an application&apos;s traces that carry a session id (<code>session.id</code>), grouped by session, newest first
        {sessions.length === SESSIONS_LIST_LIMIT ? ` (the newest ${SESSIONS_LIST_LIMIT})` : ''}.
      </p>
      {sessions.length === 0 ? (
        <p className="panel muted" data-testid="sessions-empty">
          No session yet: runs imported from traces with a <code>session.id</code> appear here (<code>npm run stockroom -- import FILE</code> or the OTLP receiver).
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="sessions">
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Runs</th>
                <th scope="col">First run started</th>
                <th scope="col">Last run started</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.sessionId}>
                  <td>
                    <Link href={`/sessions/${encodeURIComponent(s.sessionId)}`}>{s.sessionId}</Link>
                  </td>
                  <td>{s.runs}</td>
                  <td>{utc(s.firstStartedAt)}</td>
                  <td>{utc(s.lastStartedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}

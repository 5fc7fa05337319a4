import 'server-only';
/**
 * Who is signed in: better-auth's session (read from the request's cookie, checked against the
 * sessions table) joined with the user's tenant roles, re-read on every call so a removed role
 * takes effect at once.
 */
import { getDb } from '../db/core';
import { getIdentity } from '../db/governance';
import { asDatabaseUnavailable } from '../db/core';
import type { Membership } from '../governance';
import { getAuth } from './auth';

/** A signed-in dashboard user. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  memberships: Membership[];
}

/** The user behind the request's session cookie, or null when there is no valid session. */
export async function sessionUser(requestHeaders: Headers): Promise<SessionUser | null> {
  // better-auth hands the data layer's error on wrapped: unwrap an unavailable database, so the page's
  // error boundary still knows it by its digest (lib/db/core/unavailable.ts).
  const session = await getAuth()
    .api.getSession({ headers: requestHeaders })
    .catch((err: unknown) => {
      throw asDatabaseUnavailable(err) ?? err;
    });
  if (!session) return null;
  const identity = await getIdentity(getDb().prisma, session.user.id);
  if (!identity) return null;
  return { id: session.user.id, email: session.user.email, name: session.user.name, memberships: [...identity.memberships] };
}

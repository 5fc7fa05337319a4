import 'server-only';
/**
 * The page-side session check: a server page calls `requireUser()` first and gets the signed-in
 * user (a Principal), or is redirected to /sign-in. Any membership makes a viewer, who may read.
 */
import { redirect } from 'next/navigation';
import { currentPrincipal, holdsRole, type Principal } from './authorize';

/** The signed-in user, or a redirect to /sign-in (also when they hold no role at all). */
export async function requireUser(): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal || !holdsRole(principal.memberships, 'viewer', principal.tenant)) redirect('/sign-in');
  return principal;
}

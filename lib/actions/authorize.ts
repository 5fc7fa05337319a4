import 'server-only';
/**
 * The authorisation seam every action and mutating route goes through: the caller's better-auth
 * session (from the request headers) and their tenant roles from the database. Roles rank
 * viewer < operator < admin; `reviewer` is a separate per-tenant role (an admin holds it too), and
 * the tenant-specific check for a review happens where the request's tenant is known.
 */
import { headers } from 'next/headers';
import { sessionUser } from '../auth/session';
import { DEFAULT_TENANT, type Membership } from '../governance/principal';
import { ForbiddenError, UnauthenticatedError } from './errors';

/** The roles an action or route may require. */
export const ROLES = ['viewer', 'operator', 'reviewer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling. */
export interface Principal {
  id: string;
  name: string;
  email: string;
  memberships: Membership[];
  /** Distinct roles over all tenants, for display. */
  roles: Role[];
  /** The tenant the caller operates in: their operator/admin tenant, preferring the default one. */
  tenant: string;
}

/** Roles that satisfy `required` (admin satisfies everything; any membership makes a viewer). */
const SATISFIED_BY: Record<Role, readonly Role[]> = {
  viewer: ROLES,
  operator: ['operator', 'admin'],
  reviewer: ['reviewer', 'admin'],
  admin: ['admin'],
};

/** Whether `memberships` hold `required` in some tenant (or in `tenant`, when given). */
export function holdsRole(memberships: readonly Membership[], required: Role, tenant?: string): boolean {
  return memberships.some((m) => (tenant === undefined || m.tenant === tenant) && SATISFIED_BY[required].includes(m.role));
}

function operatingTenant(memberships: readonly Membership[]): string {
  const operating = memberships.filter((m) => m.role === 'operator' || m.role === 'admin').map((m) => m.tenant);
  if (operating.includes(DEFAULT_TENANT)) return DEFAULT_TENANT;
  return operating[0] ?? memberships[0]?.tenant ?? DEFAULT_TENANT;
}

/** The signed-in caller as a Principal, or null. Reads the request headers when none are given. */
export async function currentPrincipal(requestHeaders?: Headers): Promise<Principal | null> {
  const user = await sessionUser(requestHeaders ?? (await headers()));
  if (!user) return null;
  const roles = ROLES.filter((r) => user.memberships.some((m) => m.role === r));
  return { ...user, roles, tenant: operatingTenant(user.memberships) };
}

/**
 * Returns the caller when they hold `required`; throws UnauthenticatedError without a valid session
 * and ForbiddenError when the role is missing. Route handlers pass their request's headers.
 */
export async function authorize(required: Role, requestHeaders?: Headers): Promise<Principal> {
  const principal = await currentPrincipal(requestHeaders);
  if (!principal) throw new UnauthenticatedError();
  if (!holdsRole(principal.memberships, required)) {
    throw new ForbiddenError(`This needs the ${required} role; you have ${principal.roles.join(', ') || 'no role'}.`);
  }
  return principal;
}

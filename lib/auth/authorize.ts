import 'server-only';
/**
 * The authorisation seam every action and mutating route goes through: the caller's better-auth
 * session (from the request headers) and their tenant roles from the database. Roles rank
 * viewer < operator < admin; `reviewer` is a separate per-tenant role (an admin holds it too).
 *
 * A caller works in one tenant at a time: the one chosen in the tenant cookie (validated here
 * against their memberships on every request), else their operator/admin tenant. Roles are checked
 * in that tenant only, and every read and write is scoped to it (lib/db/governance/tenant-scope.ts).
 */
import { headers } from 'next/headers';
import { cache } from 'react';
import { sessionUser } from './session';
import { DEFAULT_TENANT, type Membership } from '../governance';
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
  /** The caller's roles in `tenant`. */
  roles: Role[];
  /** The tenant the caller works in: the chosen one (cookie) when they belong to it, else their operator/admin tenant. */
  tenant: string;
  /** Every tenant the caller belongs to, sorted (the header's tenant switcher). */
  tenants: string[];
}

/** The cookie that holds the tenant a user with several memberships chose to work in. */
export const TENANT_COOKIE = 'stockroom-tenant';

/** The value of the tenant cookie in a `cookie` header, or null. */
export function chosenTenant(requestHeaders: Headers): string | null {
  for (const part of (requestHeaders.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== TENANT_COOKIE) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    } catch {
      return null;
    }
  }
  return null;
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

/**
 * The caller of the request being rendered, read once however many parts of the page ask (the
 * layout's header and the page both do: four queries each, a tenth of a runs page's time). React's
 * cache lasts one server render; outside one (an action, a route) it reads every time.
 */
const renderedPrincipal = cache(async (): Promise<Principal | null> => principalOf(await headers()));

/** The signed-in caller as a Principal, or null. Reads the request headers when none are given. */
export async function currentPrincipal(requestHeaders?: Headers): Promise<Principal | null> {
  return requestHeaders ? principalOf(requestHeaders) : renderedPrincipal();
}

async function principalOf(h: Headers): Promise<Principal | null> {
  const user = await sessionUser(h);
  if (!user) return null;
  const tenants = [...new Set(user.memberships.map((m) => m.tenant))].sort();
  const chosen = chosenTenant(h);
  const tenant = chosen !== null && tenants.includes(chosen) ? chosen : operatingTenant(user.memberships);
  const roles = ROLES.filter((r) => user.memberships.some((m) => m.tenant === tenant && m.role === r));
  return { ...user, roles, tenant, tenants };
}

/**
 * Returns the caller when they hold `required` in the tenant they work in; throws UnauthenticatedError without a valid session
 * and ForbiddenError when the role is missing. Route handlers pass their request's headers.
 */
export async function authorize(required: Role, requestHeaders?: Headers): Promise<Principal> {
  const principal = await currentPrincipal(requestHeaders);
  if (!principal) throw new UnauthenticatedError();
  if (!holdsRole(principal.memberships, required, principal.tenant)) {
    throw new ForbiddenError(`This needs the ${required} role in the tenant you are working in; you have ${principal.roles.join(', ') || 'no role'} there.`);
  }
  return principal;
}

import 'server-only';
/** The users of one tenant with their roles there (the CLI's `user list`): nothing of any other tenant. */
import { ROLES } from '../../governance';
import type { Database } from '../core';

/** A user as `user list` shows them: their roles in the asked tenant only. */
export interface TenantUserDto {
  email: string;
  name: string;
  /** Roles in this tenant, in the order of ROLES (viewer, operator, reviewer, admin). */
  roles: string[];
  createdAt: string;
}

/** Users holding any role in `tenant`, by email; memberships in other tenants are neither read nor shown. */
export async function listTenantUsers(db: Database, tenant: string): Promise<TenantUserDto[]> {
  const rows = await db.prisma.membership.findMany({
    where: { tenant },
    select: { role: true, user: { select: { email: true, name: true, createdAt: true } } },
  });
  const byEmail = new Map<string, TenantUserDto>();
  for (const r of rows) {
    const u = byEmail.get(r.user.email) ?? { email: r.user.email, name: r.user.name, roles: [], createdAt: r.user.createdAt.toISOString() };
    u.roles.push(r.role);
    byEmail.set(r.user.email, u);
  }
  const rank = (role: string) => (ROLES as readonly string[]).indexOf(role);
  return [...byEmail.values()]
    .map((u) => ({ ...u, roles: u.roles.sort((a, b) => rank(a) - rank(b)) }))
    .sort((a, b) => a.email.localeCompare(b.email));
}

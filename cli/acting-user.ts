/**
 * `--as EMAIL` for commands that act in a tenant: the dashboard user must hold `role` there (admin
 * holds every role), or the command refuses before it reads or writes anything.
 */
import { getIdentity } from '../lib/db/governance/governance-members';
import type { Prisma } from '../lib/db/core/client';
import { hasTenantRole, type Role } from '../lib/governance/principal';
import { CliUsageError } from './args';

/** The id of the user `email` if they hold `role` in `tenant`; CliUsageError naming the flag otherwise. */
export async function actingUserId(prisma: Prisma, email: string | undefined, tenant: string, role: Role, what: string): Promise<string> {
  if (email === undefined) throw new CliUsageError(`--as: name the dashboard user (${role} in tenant ${tenant}) who ${what}`);
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  const identity = user ? await getIdentity(prisma, user.id) : null;
  if (!user || !identity || !hasTenantRole(identity, tenant, role)) throw new CliUsageError(`--as ${email}: no dashboard user with the ${role} role in tenant ${tenant}; nothing was done`);
  return user.id;
}

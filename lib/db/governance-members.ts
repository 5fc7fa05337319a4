import 'server-only';
/** Users' tenant roles, as governance reads them (re-read at every decision and resume). */
import { RoleSchema, type Membership, type ReviewerIdentity, type Role } from '../governance/principal';
import type { Prisma } from './client';

export async function getIdentity(prisma: Prisma, userId: string): Promise<ReviewerIdentity | null> {
  const user = await prisma.user.findUnique({ where: { id: userId }, include: { memberships: true } });
  if (!user) return null;
  const memberships: Membership[] = user.memberships.flatMap((m) => {
    const role = RoleSchema.safeParse(m.role);
    return role.success ? [{ tenant: m.tenant, role: role.data }] : [];
  });
  return { id: user.id, memberships };
}

export async function addMembership(prisma: Prisma, userId: string, tenant: string, role: Role): Promise<void> {
  await prisma.membership.upsert({ where: { userId_tenant_role: { userId, tenant, role } }, create: { userId, tenant, role }, update: {} });
}

export async function removeMembership(prisma: Prisma, userId: string, tenant: string, role: Role): Promise<void> {
  await prisma.membership.deleteMany({ where: { userId, tenant, role } });
}

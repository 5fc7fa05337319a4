import 'server-only';
/** Users' tenant roles, as governance reads them (re-read at every decision and resume). */
import { RoleSchema, type Membership, type ReviewerIdentity, type Role } from '../../governance';
import type { Prisma } from '../core';

export async function getIdentity(prisma: Prisma, userId: string): Promise<ReviewerIdentity | null> {
  const user = await prisma.user.findUnique({ where: { id: userId }, include: { memberships: true } });
  if (!user) return null;
  const memberships: Membership[] = user.memberships.flatMap((m) => {
    const role = RoleSchema.safeParse(m.role);
    return role.success ? [{ tenant: m.tenant, role: role.data }] : [];
  });
  return { id: user.id, memberships };
}

/** A user's identity by email (an OAuth access token names its user so), or null. */
export async function getIdentityByEmail(prisma: Prisma, email: string): Promise<ReviewerIdentity | null> {
  const user = await prisma.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true } });
  return user ? getIdentity(prisma, user.id) : null;
}

export async function addMembership(prisma: Prisma, userId: string, tenant: string, role: Role): Promise<void> {
  await prisma.membership.upsert({ where: { userId_tenant_role: { userId, tenant, role } }, create: { userId, tenant, role }, update: {} });
}

export async function removeMembership(prisma: Prisma, userId: string, tenant: string, role: Role): Promise<void> {
  await prisma.membership.deleteMany({ where: { userId, tenant, role } });
}

/** Display labels (email) of users by id; unknown ids are left out. */
export async function userLabels(prisma: Prisma, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, email: true } });
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** Whether any dashboard user exists (npm start prints how to create the first admin when not). */
export async function countUsers(prisma: Prisma): Promise<number> {
  return prisma.user.count();
}

import 'server-only';
/**
 * Creating dashboard users (the CLI's `admin create`, test setup). Public sign-up is disabled, so
 * users are created server-side through better-auth's own password hashing, then given tenant roles.
 */
import { hashPassword } from 'better-auth/crypto';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client';
import { addMembership } from '../db/governance-members';
import { DEFAULT_TENANT, type Role } from '../governance/principal';
import { MIN_PASSWORD_LENGTH } from './auth';

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  roles: readonly Role[];
  tenant?: string;
}

/** Creates (or, for an existing email, re-roles and re-passwords) a user; returns their id. */
export async function upsertUser(db: Database, input: NewUser): Promise<string> {
  if (input.password.length < MIN_PASSWORD_LENGTH) throw new Error(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  const email = input.email.trim().toLowerCase();
  const hash = await hashPassword(input.password);
  const now = new Date();
  const existing = await db.prisma.user.findUnique({ where: { email } });
  const id = existing?.id ?? randomUUID();
  if (!existing) {
    await db.prisma.user.create({ data: { id, email, name: input.name ?? email.split('@')[0]!, emailVerified: true, createdAt: now, updatedAt: now } });
  }
  const account = await db.prisma.account.findFirst({ where: { userId: id, providerId: 'credential' } });
  if (account) await db.prisma.account.update({ where: { id: account.id }, data: { password: hash, updatedAt: now } });
  else await db.prisma.account.create({ data: { id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash, createdAt: now, updatedAt: now } });
  for (const role of input.roles) await addMembership(db.prisma, id, input.tenant ?? DEFAULT_TENANT, role);
  return id;
}

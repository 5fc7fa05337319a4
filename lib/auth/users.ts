import 'server-only';
/**
 * Creating dashboard users (the CLI's `user create`, test setup). Public sign-up is disabled, so
 * users are created server-side through better-auth's own password hashing, then given tenant roles.
 * The input is validated whole before anything is written (InvalidInputError names the field).
 */
import { hashPassword } from 'better-auth/crypto';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/core';
import { InvalidInputError } from '../db/core';
import { addMembership } from '../db/governance';
import { NewUserSchema, type NewUserInput } from '../schemas/users';

export type { NewUserInput as NewUser } from '../schemas/users';

/** Creates (or, for an existing email, re-roles and re-passwords) a user; returns their id. */
export async function upsertUser(db: Database, raw: NewUserInput): Promise<string> {
  const parsed = NewUserSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidInputError(String(issue.path[0] ?? 'user'), issue.message);
  }
  const input = parsed.data;
  const email = input.email;
  const hash = await hashPassword(input.password);
  const now = new Date();
  return db.prisma.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email } });
    const id = existing?.id ?? randomUUID();
    if (!existing) {
      await tx.user.create({ data: { id, email, name: input.name ?? email.split('@')[0]!, emailVerified: true, createdAt: now, updatedAt: now } });
    }
    const account = await tx.account.findFirst({ where: { userId: id, providerId: 'credential' } });
    if (account) await tx.account.update({ where: { id: account.id }, data: { password: hash, updatedAt: now } });
    else await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash, createdAt: now, updatedAt: now } });
    for (const role of input.roles) await addMembership(tx as unknown as typeof db.prisma, id, input.tenant, role);
    return id;
  });
}

/**
 * `stockroom user create --email E --password P --role viewer|operator|reviewer|admin[,…] [--tenant T]`:
 * creates a dashboard user of any role (or re-roles and re-passwords an existing one). Public sign-up is
 * disabled, so every user — the first admin, operators, reviewers, viewers — is made this way.
 * `admin create` is the same command, kept for the first admin; its `--role` defaults to admin.
 */
import { openMigratedDatabase } from '../database';
import { upsertUser } from '../../lib/auth/users';
import { NewUserSchema } from '../../lib/schemas/users';
import { DEFAULT_TENANT, ROLES, RoleSchema, type Role } from '../../lib/governance/principal';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';
import type { CliCommand } from '../command';

const FLAGS: FlagSpec = {
  email: { type: 'string', description: 'sign-in email' },
  password: { type: 'string', description: 'at least 12 characters' },
  name: { type: 'string', description: 'display name (default: the part of the email before @)' },
  role: { type: 'string', description: `comma-separated roles: ${ROLES.join(', ')} (required for 'user create'; 'admin create' defaults to admin)` },
  tenant: { type: 'string', description: `tenant the roles belong to (default: ${DEFAULT_TENANT})` },
};

function parseRoles(raw: string): Role[] {
  const roles: Role[] = [];
  for (const r of raw.split(',')) {
    const parsed = RoleSchema.safeParse(r.trim());
    if (!parsed.success) throw new CliUsageError(`--role: unknown role '${r}' (${ROLES.join(', ')})`);
    roles.push(parsed.data);
  }
  return roles;
}

function userCommand(name: 'user' | 'admin'): CliCommand {
  return {
    name,
    summary:
      name === 'user'
        ? 'create or update a dashboard user with roles in a tenant (viewers, operators, reviewers and admins alike)'
        : "create or update a dashboard user (the same as 'user create'; --role defaults to admin)",
    usage: `${name} create --email E --password P ${name === 'user' ? '--role R' : '[--role R]'}[,R…] [--tenant T] [--name N]   (roles: ${ROLES.join(', ')})`,
    flags: FLAGS,
    async run(argv) {
      const args = parseArgs(argv, FLAGS);
      if (args.positionals[0] !== 'create' || args.positionals.length !== 1) throw new CliUsageError(name === 'user' ? "expected 'user create' or 'user list'" : "expected 'admin create'");
      const email = stringFlag(args, 'email');
      const password = stringFlag(args, 'password');
      if (email === undefined) throw new CliUsageError('--email is required');
      if (password === undefined) throw new CliUsageError('--password is required');
      const roleFlag = stringFlag(args, 'role') ?? (name === 'admin' ? 'admin' : undefined);
      if (roleFlag === undefined) throw new CliUsageError(`--role is required (${ROLES.join(', ')})`);
      const roles = parseRoles(roleFlag);
      // Everything is checked before the database is opened, so a refusal writes nothing.
      const parsed = NewUserSchema.safeParse({ email, password, name: stringFlag(args, 'name'), roles, tenant: stringFlag(args, 'tenant') });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? 'email');
        throw new CliUsageError(`--${field === 'roles' ? 'role' : field}: ${issue.message}`);
      }
      const user = parsed.data;
      const db = await openMigratedDatabase();
      try {
        const id = await upsertUser(db, user);
        process.stdout.write(`${name}: ${user.email} (${id}) has ${roles.join(', ')} in ${user.tenant}\n`);
        return 0;
      } finally {
        await db.close();
      }
    },
  };
}

export const command: CliCommand = userCommand('admin');
export const userCreateCommand: CliCommand = userCommand('user');

/**
 * `stockroom admin create --email E --password P [--role admin|reviewer|operator|viewer]… [--tenant T]`:
 * creates a dashboard user (better-auth password hash) with roles in a tenant. The first admin is
 * made this way; public sign-up is disabled.
 */
import { openMigratedDatabase } from '../database';
import { upsertUser } from '../../lib/auth/users';
import { DEFAULT_TENANT, RoleSchema, type Role } from '../../lib/governance/principal';
import { parseArgs, stringFlag } from '../args';
import { CliUsageError, type CliCommand } from '../command';

const FLAGS = {
  email: { type: 'string', description: 'sign-in email' },
  password: { type: 'string', description: 'at least 12 characters' },
  name: { type: 'string', description: 'display name' },
  role: { type: 'string', description: 'comma-separated roles (default: admin)' },
  tenant: { type: 'string', description: `tenant (default: ${DEFAULT_TENANT})` },
} as const;

export const command: CliCommand = {
  name: 'admin',
  summary: 'create a dashboard user with roles (admin create)',
  usage: 'admin create --email E --password P [--role admin,reviewer,operator,viewer] [--tenant T] [--name N]',
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals[0] !== 'create' || args.positionals.length !== 1) throw new CliUsageError("expected 'admin create'");
    const email = stringFlag(args, 'email');
    const password = stringFlag(args, 'password');
    if (!email || !password) throw new CliUsageError('--email and --password are required');
    const roles: Role[] = [];
    for (const r of (stringFlag(args, 'role') ?? 'admin').split(',')) {
      const parsed = RoleSchema.safeParse(r.trim());
      if (!parsed.success) throw new CliUsageError(`unknown role '${r}' (viewer, operator, reviewer, admin)`);
      roles.push(parsed.data);
    }
    const db = await openMigratedDatabase();
    try {
      const id = await upsertUser(db, { email, password, name: stringFlag(args, 'name'), roles, tenant: stringFlag(args, 'tenant') });
      process.stdout.write(`admin: ${email} (${id}) has ${roles.join(', ')} in ${stringFlag(args, 'tenant') ?? DEFAULT_TENANT}\n`);
      return 0;
    } finally {
      await db.close();
    }
  },
};

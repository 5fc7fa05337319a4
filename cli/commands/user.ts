/**
 * `stockroom user create …` (how every dashboard user is made; see ./admin.ts, `admin create` is the
 * alias) and `stockroom user list --tenant T [--json]`: the users of one tenant with their roles there.
 */
import { openMigratedDatabase } from '../database';
import { listTenantUsers } from '../../lib/db/auth/users-list';
import { TenantSchema } from '../../lib/schemas/datasets';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';
import type { CliCommand } from '../command';
import { userCreateCommand } from './admin';

const LIST_FLAGS: FlagSpec = {
  tenant: { type: 'string', description: "the tenant whose users to list (required; 'user create' defaults it to kittiwake)" },
  json: { type: 'boolean', description: "print the list as JSON ('user list')" },
};

async function list(argv: string[]): Promise<number> {
  const args = parseArgs(argv, LIST_FLAGS);
  if (args.positionals.length > 0) throw new CliUsageError(`'user list' takes no arguments (got '${args.positionals[0]}')`);
  const raw = stringFlag(args, 'tenant');
  if (raw === undefined) throw new CliUsageError('--tenant is required: users are listed one tenant at a time');
  const tenant = TenantSchema.safeParse(raw);
  if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]!.message}`);
  const db = await openMigratedDatabase();
  try {
    const users = await listTenantUsers(db, tenant.data);
    if (args.flags.json === true) {
      process.stdout.write(`${JSON.stringify({ tenant: tenant.data, users }, null, 2)}\n`);
      return 0;
    }
    if (users.length === 0) {
      process.stdout.write(`no users in tenant ${tenant.data}\n`);
      return 0;
    }
    const width = Math.max(...users.map((u) => u.email.length));
    process.stdout.write(`${users.length} user${users.length === 1 ? '' : 's'} in tenant ${tenant.data}:\n`);
    for (const u of users) process.stdout.write(`  ${u.email.padEnd(width)}  ${u.roles.join(', ')}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

export const command: CliCommand = {
  name: 'user',
  summary: 'create or update a dashboard user with roles in a tenant (viewers, operators, reviewers and admins alike), or list the users of a tenant',
  usage: `${userCreateCommand.usage} | user list --tenant T [--json]`,
  flags: { ...userCreateCommand.flags, ...LIST_FLAGS, tenant: { type: 'string', description: 'the tenant the roles belong to (create; default kittiwake) or whose users to list (list; required)' } },
  run: (argv) => (argv[0] === 'list' ? list(argv.slice(1)) : userCreateCommand.run(argv)),
};

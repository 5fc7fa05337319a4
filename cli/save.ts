/**
 * `--save --tenant T --as EMAIL` for run, eval and matrix: store what the CLI ran in the database the
 * dashboard uses (DATABASE_URL, or the embedded file), in tenant T, attributed to the user EMAIL, so
 * a CI job's matrix can be inspected in the dashboard. Everything is checked before anything runs:
 * the user must hold `operator` in T, the dataset must belong to T, and T's governance must not be
 * mandatory (CLI runs are ungoverned); otherwise the command is refused and nothing is written.
 * Storing goes through the same data-layer functions as the dashboard's actions.
 */
import path from 'node:path';
import { allowedDatasets, declaredTenant } from '../lib/runs/datasets';
import { currentPolicy } from '../lib/governance/current-policy';
import type { Database } from '../lib/db/core/client';
import { getIdentity } from '../lib/db/governance/governance-members';
import { GOVERNANCE_REQUIRED_MESSAGE, governanceMandatory } from '../lib/governance/policy-file';
import { DEFAULT_TENANT, hasTenantRole } from '../lib/governance/principal';
import { TenantSchema } from '../lib/schemas/datasets';
import { CliUsageError, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { openMigratedDatabase } from './database';

export const SAVE_FLAGS: FlagSpec = {
  save: { type: 'boolean', description: 'store the runs (and the suite) in the dashboard database (DATABASE_URL or the embedded file)' },
  tenant: { type: 'string', description: 'with --save: the tenant to store in (the dataset must belong to it)' },
  as: { type: 'string', description: 'with --save: email of the dashboard user the runs are attributed to (needs operator in --tenant)' },
};

/** Where `--save` stores: an open database and the owner of what is stored. */
export interface SaveTarget {
  db: Database;
  owner: { createdBy: string; tenant: string };
  close(): Promise<void>;
}

/** The tenant the dataset directory belongs to: as the dashboard assigns it when it is on the allow-list, else its own declaration. */
export function tenantOfDatasetDir(dir: string): string {
  const resolved = path.resolve(dir);
  const entry = allowedDatasets().find((e) => path.resolve(e.dir) === resolved);
  return entry?.tenant ?? declaredTenant(resolved) ?? DEFAULT_TENANT;
}

/**
 * Validates the save flags and opens the database; null without `--save`. Throws CliUsageError
 * (nothing written) when a flag is missing or bad, the dataset is another tenant's, governance is
 * mandatory for the tenant, or the user does not hold operator in it.
 */
export async function saveTargetFromArgs(args: ParsedArgs, datasetDir: string): Promise<SaveTarget | null> {
  const rawTenant = stringFlag(args, 'tenant');
  const email = stringFlag(args, 'as');
  if (args.flags.save !== true) {
    if (rawTenant !== undefined || email !== undefined) throw new CliUsageError('--tenant and --as only apply with --save');
    return null;
  }
  if (rawTenant === undefined) throw new CliUsageError('--save needs --tenant T (the tenant to store the runs in)');
  if (email === undefined) throw new CliUsageError('--save needs --as EMAIL (the dashboard user the runs are attributed to)');
  const tenant = TenantSchema.safeParse(rawTenant);
  if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'not a tenant name'}`);
  const T = tenant.data;
  if (tenantOfDatasetDir(datasetDir) !== T) throw new CliUsageError(`--tenant ${T}: the dataset ${datasetDir} does not belong to tenant ${T}; nothing was stored`);
  if (governanceMandatory(currentPolicy().document, T)) throw new CliUsageError(`--tenant ${T}: ${GOVERNANCE_REQUIRED_MESSAGE} Nothing was run or stored.`);
  const db = await openMigratedDatabase();
  try {
    const user = await db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
    const identity = user ? await getIdentity(db.prisma, user.id) : null;
    if (!user || !identity || !hasTenantRole(identity, T, 'operator')) {
      throw new CliUsageError(`--as ${email}: no dashboard user with the operator role in tenant ${T}; nothing was stored`);
    }
    return { db, owner: { createdBy: user.id, tenant: T }, close: () => db.close() };
  } catch (err) {
    await db.close();
    throw err;
  }
}

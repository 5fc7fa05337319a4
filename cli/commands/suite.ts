/**
 * `stockroom suite status ID --tenant T` and `stockroom suite cancel ID --tenant T --as EMAIL`: a
 * queued suite's progress (counted from stored runs, with the time left), and cancelling it
 * (workers stop within seconds; the stored cases stay as its partial result, marked cancelled).
 * Cancelling needs a dashboard user with the operator role in the suite's tenant.
 */
import { getIdentity } from '../../lib/db/governance/governance-members';
import { cancelSuiteRun, getSuiteProgress } from '../../lib/db/suites/suite-jobs';
import { noWorkerNotice, workersLine } from '../../lib/format/workers';
import { requireSuiteInTenant } from '../../lib/db/governance/tenant-scope';
import { formatEta } from '../../lib/format/eta';
import { hasTenantRole } from '../../lib/governance/principal';
import { TenantSchema } from '../../lib/schemas/datasets';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { openMigratedDatabase } from '../database';

const FLAGS = {
  tenant: { type: 'string', description: 'the tenant the suite belongs to' },
  as: { type: 'string', description: 'cancel: email of a dashboard user with operator in --tenant' },
  json: { type: 'boolean', description: 'print JSON' },
} as const;

export const command: CliCommand = {
  name: 'suite',
  summary: 'show a queued suite’s progress, or cancel it',
  usage: 'suite status ID --tenant T [--json] | suite cancel ID --tenant T --as EMAIL',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const [action, id, ...rest] = args.positionals;
    if ((action !== 'status' && action !== 'cancel') || !id || rest.length > 0) throw new CliUsageError('suite needs status ID or cancel ID');
    const tenant = TenantSchema.safeParse(stringFlag(args, 'tenant') ?? '');
    if (!tenant.success) throw new CliUsageError('--tenant T is required (the tenant the suite belongs to)');
    const db = await openMigratedDatabase();
    try {
      await requireSuiteInTenant(id, tenant.data, db).catch(() => {
        throw new CliUsageError(`no suite ${id} in tenant ${tenant.data}`);
      });
      if (action === 'cancel') {
        const email = stringFlag(args, 'as');
        if (!email) throw new CliUsageError('suite cancel needs --as EMAIL (a dashboard user with operator in --tenant)');
        const user = await db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
        const identity = user ? await getIdentity(db.prisma, user.id) : null;
        if (!identity || !hasTenantRole(identity, tenant.data, 'operator')) throw new CliUsageError(`--as ${email}: no dashboard user with the operator role in tenant ${tenant.data}`);
        const outcome = await cancelSuiteRun(id, db);
        const p = await getSuiteProgress(id, db);
        process.stdout.write(
          args.flags.json ? JSON.stringify({ suiteId: id, outcome, stored: p.stored, total: p.total }) + '\n' : outcome === 'cancelled' ? `suite ${id} cancelled: ${p.stored} of ${p.total} runs stored are its partial result\n` : `suite ${id} had already finished (${p.status})\n`,
        );
        return outcome === 'cancelled' ? 0 : 1;
      }
      const p = await getSuiteProgress(id, db);
      const workers = workersLine(p.status, p.workers);
      process.stdout.write(
        args.flags.json
          ? JSON.stringify({ suiteId: id, ...p }) + '\n'
          : `suite ${id} ${p.status}: ${p.stored} of ${p.total} runs stored${p.etaMs !== null ? `, ${formatEta(p.etaMs)}` : ''}${workers ? ` (${workers})` : ''}\n`,
      );
      const waiting = noWorkerNotice(p.status, p.workers);
      if (waiting) process.stderr.write(`${waiting}\n`);
      return 0;
    } finally {
      await db.close();
    }
  },
};

/**
 * `stockroom judge calibrate [--judge PROVIDER:MODEL] [--set FILE] [--tenant T] [--as EMAIL] [--json]`:
 * grades the course's human-labelled calibration set with a judge (the fake one by default) and
 * prints its agreement with the labels and Cohen's kappa, overall and per rubric. The result is stored
 * in tenant T (default kittiwake) for the dashboard's Judge page; a live judge's calls are recorded in
 * that tenant too and answer the same request again without calling the provider.
 */
import { existsSync } from 'node:fs';
import { calibrateJudge, defaultCalibrationFile, formatCalibration, loadCalibrationSet } from '../../lib/eval/calibration';
import { ModelJudge } from '../../lib/models/model-judge';
import { PrismaJudgeCallStore, saveCalibration } from '../../lib/db/judge';
import { getIdentity } from '../../lib/db/governance-members';
import { DEFAULT_TENANT, hasTenantRole } from '../../lib/governance/principal';
import { TenantSchema } from '../../lib/schemas/datasets';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { cancelOnSigint } from '../common';
import { openMigratedDatabase } from '../database';
import { JUDGE_FLAGS, judgeFromSpec, judgeSpecFromArgs } from '../judge-flags';

const FLAGS = {
  ...JUDGE_FLAGS,
  set: { type: 'string', description: 'calibration JSONL (default: judge_calibration/calibration_v1.jsonl of the course dataset, or STOCKROOM_CALIBRATION_SET)' },
  tenant: { type: 'string', description: 'the tenant the result (and a live judge’s recorded calls) are stored in (default kittiwake)' },
  as: { type: 'string', description: 'email of the dashboard user the calibration is attributed to (needs operator in --tenant)' },
  json: { type: 'boolean', description: 'print the result as JSON' },
} as const;

/** The calibration file: --set, STOCKROOM_CALIBRATION_SET, or the course dataset's. */
function calibrationFile(flag: string | undefined): string {
  const file = flag ?? defaultCalibrationFile();
  if (!existsSync(file)) throw new CliUsageError(`--set: no calibration set at ${file}; give --set FILE (a judge_calibration JSONL)`);
  return file;
}

export const command: CliCommand = {
  name: 'judge',
  summary: "score the judge calibration set: agreement with the human labels and Cohen's kappa (stored for the Judge page)",
  usage: 'judge calibrate [--judge fake|PROVIDER:MODEL] [--judge-base-url URL] [--set FILE] [--tenant T] [--as EMAIL] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const [sub, ...extra] = args.positionals;
    if (sub !== 'calibrate') throw new CliUsageError(sub === undefined ? 'judge needs a subcommand: calibrate' : `unknown judge subcommand '${sub}'; allowed: calibrate`);
    if (extra.length > 0) throw new CliUsageError(`unexpected argument '${extra[0]}'`);
    const tenant = TenantSchema.safeParse(stringFlag(args, 'tenant') ?? DEFAULT_TENANT);
    if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'not a tenant name'}`);
    // Everything is checked before the first judge call: the set, the judge and its credentials, the user.
    const set = loadCalibrationSet(calibrationFile(stringFlag(args, 'set')));
    const spec = await judgeSpecFromArgs(args);
    const db = await openMigratedDatabase();
    const cancel = cancelOnSigint();
    try {
      const email = stringFlag(args, 'as');
      let createdBy: string | null = null;
      if (email !== undefined) {
        const user = await db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
        const identity = user ? await getIdentity(db.prisma, user.id) : null;
        if (!user || !identity || !hasTenantRole(identity, tenant.data, 'operator')) {
          throw new CliUsageError(`--as ${email}: no dashboard user with the operator role in tenant ${tenant.data}; nothing was run`);
        }
        createdBy = user.id;
      }
      const judge = await judgeFromSpec(spec, new PrismaJudgeCallStore(tenant.data, db));
      const showProgress = args.flags.json !== true && process.stderr.isTTY === true;
      const result = await calibrateJudge({
        judge,
        set,
        signal: cancel.signal,
        onProgress: showProgress ? (done, total, id) => process.stderr.write(`\r${done}/${total} ${id}   `) : undefined,
      });
      if (showProgress) process.stderr.write('\n');
      const providerCalls = judge instanceof ModelJudge ? judge.providerCalls : 0;
      const cacheHits = judge instanceof ModelJudge ? judge.cacheHits : 0;
      const id = await saveCalibration(result, { tenant: tenant.data, createdBy, providerCalls }, db);
      if (args.flags.json) process.stdout.write(JSON.stringify({ id, tenant: tenant.data, providerCalls, cacheHits, ...result }, null, 2) + '\n');
      else {
        const calls = judge instanceof ModelJudge ? `\nprovider calls ${providerCalls}, answered from recorded calls ${cacheHits}` : '';
        process.stdout.write(`${formatCalibration(result)}${calls}\n\nstored as calibration ${id} in tenant ${tenant.data}\n`);
      }
      return 0;
    } finally {
      cancel.dispose();
      await db.close();
    }
  },
};

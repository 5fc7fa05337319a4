/**
 * `stockroom judge calibrate [--judge PROVIDER:MODEL] [--set FILE | --labels tenant:T] [--tenant T] [--as EMAIL] [--json]`:
 * grades the course's human-labelled calibration set — or, with --labels, the runs tenant T's
 * reviewers labelled pass or fail — with a judge (the fake one by default) and
 * prints its agreement with the labels and Cohen's kappa, overall and per rubric. The result is stored
 * in tenant T (default kittiwake) for the dashboard's Judge page; a live judge's calls are recorded in
 * that tenant too and answer the same request again without calling the provider.
 */
import { existsSync } from 'node:fs';
import { calibrateJudge, defaultCalibrationFile, formatCalibration, loadCalibrationSet, type CalibrationSet } from '../../lib/eval/calibration';
import { ModelJudge } from '../../lib/models/model-judge';
import { PrismaJudgeCallStore, saveCalibration } from '../../lib/db/review/judge';
import { getIdentity } from '../../lib/db/governance/governance-members';
import { DEFAULT_TENANT, hasTenantRole } from '../../lib/governance/principal';
import { TenantSchema } from '../../lib/schemas/datasets';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { cancelOnSigint } from '../common';
import { openMigratedDatabase } from '../database';
import { JUDGE_FLAGS, judgeFromSpec, judgeSpecFromArgs } from '../judge-flags';
import { labelCalibrationSet } from '../../lib/runs/label-calibration';
import { MIN_CALIBRATION_LABELS } from '../../lib/eval/label-calibration';

const FLAGS = {
  ...JUDGE_FLAGS,
  set: { type: 'string', description: 'calibration JSONL (default: judge_calibration/calibration_v1.jsonl of the course dataset, or STOCKROOM_CALIBRATION_SET)' },
  labels: { type: 'string', description: 'tenant:T — calibrate on the runs tenant T’s reviewers labelled pass or fail (stored in T)' },
  tenant: { type: 'string', description: 'the tenant the result (and a live judge’s recorded calls) are stored in (default kittiwake)' },
  as: { type: 'string', description: 'email of the dashboard user the calibration is attributed to (needs operator in --tenant)' },
  json: { type: 'boolean', description: 'print the result as JSON' },
} as const;

/** The tenant of `--labels tenant:T`, or null without the flag. */
function labelsFlag(value: string | undefined): string | null {
  if (value === undefined) return null;
  const m = /^tenant:(.+)$/.exec(value.trim());
  const tenant = m ? TenantSchema.safeParse(m[1]) : null;
  if (!tenant?.success) throw new CliUsageError('--labels: give tenant:T, the tenant whose reviewers’ labels to calibrate on');
  return tenant.data;
}

/** The calibration file: --set, STOCKROOM_CALIBRATION_SET, or the course dataset's. */
function calibrationFile(flag: string | undefined): string {
  const file = flag ?? defaultCalibrationFile();
  if (!existsSync(file)) throw new CliUsageError(`--set: no calibration set at ${file}; give --set FILE (a judge_calibration JSONL)`);
  return file;
}

export const command: CliCommand = {
  name: 'judge',
  summary: "score the judge calibration set: agreement with the human labels and Cohen's kappa (stored for the Judge page)",
  usage: 'judge calibrate [--judge fake|PROVIDER:MODEL] [--judge-base-url URL] [--set FILE | --labels tenant:T] [--tenant T] [--as EMAIL] [--json]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const [sub, ...extra] = args.positionals;
    if (sub !== 'calibrate') throw new CliUsageError(sub === undefined ? 'judge needs a subcommand: calibrate' : `unknown judge subcommand '${sub}'; allowed: calibrate`);
    if (extra.length > 0) throw new CliUsageError(`unexpected argument '${extra[0]}'`);
    const labelsTenant = labelsFlag(stringFlag(args, 'labels'));
    if (labelsTenant !== null && stringFlag(args, 'set') !== undefined) throw new CliUsageError('--set and --labels name two calibration sets; give one');
    if (labelsTenant !== null && stringFlag(args, 'tenant') !== undefined && stringFlag(args, 'tenant') !== labelsTenant)
      throw new CliUsageError(`--tenant: a calibration on tenant ${labelsTenant}'s labels is stored in ${labelsTenant}`);
    const tenant = TenantSchema.safeParse(labelsTenant ?? stringFlag(args, 'tenant') ?? DEFAULT_TENANT);
    if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'not a tenant name'}`);
    // Everything is checked before the first judge call: the set, the judge and its credentials, the user.
    const fileSet = labelsTenant === null ? loadCalibrationSet(calibrationFile(stringFlag(args, 'set'))) : null;
    const spec = await judgeSpecFromArgs(args);
    const db = await openMigratedDatabase();
    const cancel = cancelOnSigint();
    try {
      let set: Pick<CalibrationSet, 'name' | 'sha256' | 'items'>;
      if (fileSet !== null) set = fileSet;
      else {
        const fromLabels = await labelCalibrationSet(tenant.data, db);
        for (const l of fromLabels.unverified)
          process.stderr.write(`judge: left out label ${l.id} of run ${l.runId} (${l.verdict}): it no longer matches its evidence (edited in the database)\n`);
        if (fromLabels.set === null)
          throw new CliUsageError(
            `--labels: tenant ${tenant.data} has ${fromLabels.labelled} run(s) labelled pass or fail as a whole; a calibration needs ${MIN_CALIBRATION_LABELS} — label ${fromLabels.needed} more (the dashboard's labelling queue, /label-queue)`,
          );
        set = fromLabels.set;
      }
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

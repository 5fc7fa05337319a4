/**
 * `--golden-set NAME[@VERSION]` for eval and matrix: the cases come from a golden set stored in the
 * dashboard's database (the newest version unless one is named) instead of a golden file. The set is
 * looked up in --tenant when given (with --save), else in the dataset's tenant; the report records
 * the set's address (golden-set://tenant/name@version) and its digest, so the gate sees which ran.
 */
import { loadGoldenFile, type GoldenFile } from '../lib/eval/golden';
import { parseGoldenSetArg } from '../lib/eval/golden-sets';
import { defaultGoldenPath } from '../lib/eval/matrix';
import { getGoldenSetOrThrow } from '../lib/db/review/golden-sets';
import { NotFoundError } from '../lib/db/core/errors';
import type { Dataset } from '../lib/stockroom/dataset/types';
import { CliUsageError, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { openMigratedDatabase } from './database';
import { tenantOfDatasetDir } from './save';

export const GOLDEN_SET_FLAGS: FlagSpec = {
  'golden-set': { type: 'string', description: "NAME[@VERSION]: a golden set stored in the dashboard's database (the dataset's tenant, or --tenant)" },
};

/** The golden cases a command runs: --golden-set, else --golden FILE, else the dataset's first golden file. */
export async function goldenFromArgs(args: ParsedArgs, dataset: Pick<Dataset, 'dir' | 'goldenFiles'>): Promise<GoldenFile> {
  const setArg = stringFlag(args, 'golden-set');
  const file = stringFlag(args, 'golden');
  if (setArg === undefined) return loadGoldenFile(file ?? defaultGoldenPath(dataset));
  if (file !== undefined) throw new CliUsageError('--golden and --golden-set name two sources of cases; give one');
  let parsed;
  try {
    parsed = parseGoldenSetArg(setArg);
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
  const tenant = (args.flags.save === true ? stringFlag(args, 'tenant') : undefined) ?? tenantOfDatasetDir(dataset.dir);
  const db = await openMigratedDatabase();
  try {
    return await getGoldenSetOrThrow(tenant, parsed.name, parsed.version, db);
  } catch (err) {
    if (err instanceof NotFoundError) throw new CliUsageError(`--golden-set: tenant ${tenant} has no golden set ${setArg}`);
    throw err;
  } finally {
    await db.close();
  }
}

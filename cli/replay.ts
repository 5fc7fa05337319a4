/**
 * `--replay-from RUN_ID` on run: re-run a stored run's query against the current settings, answering
 * each model call from the run's recorded exchanges while the requests match. The stored run must
 * belong to the tenant of the dataset being run (another tenant's run answers as not found). With a
 * live `--model`, the run continues live from the first mismatch; otherwise it stops as DIVERGED.
 */
import { NotFoundError } from '../lib/db/core/errors';
import { getRunOrThrow } from '../lib/db/runs/runs-read';
import { NotReplayableError, replaySourceOf, type ReplaySource } from '../lib/models/replay-source';
import { CliUsageError, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { openMigratedDatabase } from './database';
import { tenantOfDatasetDir } from './save';

export type { ReplaySource } from '../lib/models/replay-source';

export const REPLAY_FLAGS: FlagSpec = {
  'replay-from': { type: 'string', description: "a stored run's id: re-run it against the current settings from its recorded model responses" },
};

/** The stored run `--replay-from` names, or null without the flag. Refuses a run with nothing recorded. */
export async function replaySourceFromArgs(args: ParsedArgs, datasetDir: string): Promise<ReplaySource | null> {
  const id = stringFlag(args, 'replay-from');
  if (id === undefined) return null;
  const db = await openMigratedDatabase();
  try {
    const stored = await getRunOrThrow(id, db).catch((err: unknown) => {
      throw err instanceof NotFoundError ? new CliUsageError(`--replay-from ${id}: no such run`) : err;
    });
    if (stored.meta.tenant !== tenantOfDatasetDir(datasetDir)) throw new CliUsageError(`--replay-from ${id}: no such run`);
    try {
      return replaySourceOf(stored.run, stored.meta.config);
    } catch (err) {
      throw err instanceof NotReplayableError ? new CliUsageError(`--replay-from ${id}: ${err.message}`) : err;
    }
  } finally {
    await db.close();
  }
}

export const EVAL_REPLAY_FLAGS: FlagSpec = {
  'replay-from': { type: 'string', description: "a stored suite's id (eval or matrix): re-run its cases against the current settings from their recorded model responses" },
  'replay-setting': { type: 'string', description: "with --replay-from a matrix: the setting whose runs to replay (none, ambiguous_tool_desc, …)" },
};

/** A stored suite's runs to replay, by golden case id. */
export interface SuiteReplaySource {
  suiteId: string;
  setting: string;
  /** Every case the suite ran under the setting (recorded or not), in its order: the cases a replay runs. */
  caseIds: string[];
  runs: Map<string, ReplaySource & { runId: string }>;
}

/**
 * The golden cases a suite replay runs: the suite's own, looked up in the golden file (the default one
 * or --golden). A case the file does not hold is refused, naming it, rather than replayed as something else.
 */
export function suiteReplayCases<C extends { id: string }>(cases: readonly C[], replay: SuiteReplaySource, goldenPath: string): C[] {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const missing = replay.caseIds.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new CliUsageError(
      `--replay-from ${replay.suiteId}: the golden file ${goldenPath} has no case ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}; pass the suite's own golden file with --golden`,
    );
  }
  const own = new Set(replay.caseIds);
  return cases.filter((c) => own.has(c.id));
}

/**
 * The stored suite `eval --replay-from` names, or null without the flag. The suite must belong to the
 * dataset's tenant (another tenant's answers as not found); a matrix needs --replay-setting; a suite
 * with nothing recorded (a fake-model suite) is refused.
 */
export async function suiteReplaySourceFromArgs(args: ParsedArgs, datasetDir: string): Promise<SuiteReplaySource | null> {
  const id = stringFlag(args, 'replay-from');
  const settingFlag = stringFlag(args, 'replay-setting');
  if (id === undefined) {
    if (settingFlag !== undefined) throw new CliUsageError('--replay-setting only applies with --replay-from');
    return null;
  }
  const [{ getSuiteRunOrThrow, getSuiteCases }, { requireSuiteInTenant }] = await Promise.all([import('../lib/db/suites/suites'), import('../lib/db/governance/tenant-scope')]);
  const db = await openMigratedDatabase();
  try {
    const notFound = (err: unknown) => {
      throw err instanceof NotFoundError ? new CliUsageError(`--replay-from ${id}: no such suite`) : err;
    };
    await requireSuiteInTenant(id, tenantOfDatasetDir(datasetDir), db).catch(notFound);
    const suite = await getSuiteRunOrThrow(id, db).catch(notFound);
    const settings = suite.settings.map((s) => s.setting);
    const setting = settingFlag ?? (settings.length === 1 ? settings[0]! : undefined);
    if (setting === undefined) throw new CliUsageError(`--replay-from ${id} is a ${suite.kind} with settings ${settings.join(', ') || '(none stored)'}; choose one with --replay-setting`);
    if (!settings.includes(setting)) throw new CliUsageError(`--replay-setting: suite ${id} has no setting '${setting}'; it has ${settings.join(', ')}`);
    const runs = new Map<string, ReplaySource & { runId: string }>();
    const cases = await getSuiteCases(id, setting, db);
    for (const c of cases) {
      if (!c.runId) continue;
      const stored = await getRunOrThrow(c.runId, db).catch(() => null);
      if (!stored?.run.exchanges?.length) continue;
      runs.set(c.caseId, { ...replaySourceOf(stored.run, stored.meta.config), runId: c.runId });
    }
    if (runs.size === 0) throw new CliUsageError(`--replay-from ${id}: the suite's runs have no recorded model exchanges (only live-model runs are recorded)`);
    return { suiteId: id, setting, caseIds: cases.map((c) => c.caseId), runs };
  } finally {
    await db.close();
  }
}

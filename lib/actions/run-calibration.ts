'use server';
/**
 * Scores the judge calibration set from the Judge page (admins only: it writes a calibration and,
 * for a live judge, spends provider calls). The judge is `fake` or a provider:model whose
 * credentials the server holds; results and recorded judge calls are stored in the caller's tenant.
 */
import { existsSync } from 'node:fs';
import { revalidatePath } from 'next/cache';
import { getDb } from '../db/client';
import { PrismaJudgeCallStore, saveCalibration } from '../db/judge';
import { calibrateJudge, defaultCalibrationFile, loadCalibrationSet } from '../eval/calibration';
import { ModelJudge } from '../models/model-judge';
import { createJudge } from '../models/create-judge';
import { RunCalibrationInputSchema } from '../schemas/judge';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';

export const runCalibrationAction = safeAction({
  name: 'runCalibration',
  schema: RunCalibrationInputSchema,
  role: 'admin',
  handler: async ({ judge: name }, { principal }) => {
    const file = defaultCalibrationFile();
    if (!existsSync(file)) throw new ActionError('no_calibration_set', 'This server has no judge calibration set (set STOCKROOM_CALIBRATION_SET).');
    const set = loadCalibrationSet(file);
    const db = getDb();
    // Refused (ConfigError → invalid_input) before any call when the server lacks the judge's credentials.
    const judge = createJudge({ judge: name, baseUrl: process.env.STOCKROOM_JUDGE_BASE_URL?.trim() || null }, { store: new PrismaJudgeCallStore(principal.tenant, db) });
    const result = await calibrateJudge({ judge, set });
    const providerCalls = judge instanceof ModelJudge ? judge.providerCalls : 0;
    const id = await saveCalibration(result, { tenant: principal.tenant, createdBy: principal.id, providerCalls }, db);
    revalidatePath('/judge');
    return { id, agreement: result.overall.agreement, kappa: result.overall.kappa, unscored: result.unscored };
  },
});

'use server';
/**
 * Scores the judge calibration set — the course's file, or the runs the tenant's reviewers labelled
 * pass or fail (refused, saying how many more labels it needs, below the minimum) — from the Judge page (admins only: it writes a calibration and,
 * for a live judge, spends provider calls). The judge is `fake` or a provider:model whose
 * credentials the server holds; results and recorded judge calls are stored in the caller's tenant.
 */
import { existsSync } from 'node:fs';
import { revalidatePath } from 'next/cache';
import { getDb } from '../db/core/client';
import { PrismaJudgeCallStore, saveCalibration } from '../db/review/judge';
import { calibrateJudge, defaultCalibrationFile, loadCalibrationSet, type CalibrationSet } from '../eval/calibration';
import { MIN_CALIBRATION_LABELS } from '../eval/label-calibration';
import { labelCalibrationSet } from '../runs/label-calibration';
import { ModelJudge } from '../models/model-judge';
import { createJudge } from '../models/create-judge';
import { RunCalibrationInputSchema } from '../schemas/judge';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';

export const runCalibrationAction = safeAction({
  name: 'runCalibration',
  schema: RunCalibrationInputSchema,
  role: 'admin',
  handler: async ({ judge: name, source }, { principal }) => {
    const db = getDb();
    let set: Pick<CalibrationSet, 'name' | 'sha256' | 'items'>;
    let leftOut: string[] = [];
    if (source === 'labels') {
      const fromLabels = await labelCalibrationSet(principal.tenant, db);
      if (fromLabels.set === null)
        throw new ActionError(
          'too_few_labels',
          `A calibration on labels needs ${MIN_CALIBRATION_LABELS} runs labelled pass or fail as a whole; this tenant has ${fromLabels.labelled}. Label ${fromLabels.needed} more (Label queue).`,
        );
      set = fromLabels.set;
      leftOut = fromLabels.unverified.map((l) => l.id);
    } else {
      const file = defaultCalibrationFile();
      if (!existsSync(file))
        throw new ActionError('no_calibration_set', 'This server has no course calibration set (set STOCKROOM_CALIBRATION_SET); calibrate on your labels instead.');
      set = loadCalibrationSet(file);
    }
    // Refused (ConfigError → invalid_input) before any call when the server lacks the judge's credentials.
    const judge = createJudge({ judge: name, baseUrl: process.env.STOCKROOM_JUDGE_BASE_URL?.trim() || null }, { store: new PrismaJudgeCallStore(principal.tenant, db) });
    const result = await calibrateJudge({ judge, set });
    const providerCalls = judge instanceof ModelJudge ? judge.providerCalls : 0;
    const id = await saveCalibration(result, { tenant: principal.tenant, createdBy: principal.id, providerCalls }, db);
    revalidatePath('/judge');
    return { id, agreement: result.overall.agreement, kappa: result.overall.kappa, unscored: result.unscored, unverifiedLabels: leftOut };
  },
});

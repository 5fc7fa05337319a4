'use server';
/**
 * Defines an online evaluator in the admin's working tenant, or stores the next version of the one of
 * that name. A judge's spec is checked (its provider's credentials included) before anything is saved,
 * the refusal naming the `judge` field. Scores already given keep the version they were given under.
 */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { saveEvaluator, type EvaluatorDto } from '../db/review/evaluators';
import { ConfigError } from '../harness';
import { checkJudge } from '../models/create-judge';
import { evaluatorParts, EvaluatorInputSchema } from '../schemas/evaluators';

export const saveEvaluatorAction = safeAction({
  name: 'saveEvaluator',
  schema: EvaluatorInputSchema,
  role: 'admin',
  handler: async (input, { principal }): Promise<{ evaluator: EvaluatorDto }> => {
    if (input.kind === 'judge') {
      try {
        checkJudge({ judge: input.judge ?? '', baseUrl: process.env.STOCKROOM_JUDGE_BASE_URL?.trim() || null }, process.env, 'judge');
      } catch (err) {
        if (err instanceof ConfigError) throw new ActionError('invalid_input', err.message, { fieldErrors: { judge: [err.message] } });
        throw err;
      }
    }
    const { config, filter } = evaluatorParts(input);
    const evaluator = await saveEvaluator(principal.tenant, { name: input.name, kind: input.kind, enabled: input.enabled, config, filter }, principal.id);
    revalidatePath('/evaluators');
    return { evaluator };
  },
});

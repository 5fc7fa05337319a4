'use server';
/** Removes one of the admin's tenant's evaluators (another tenant's: not found); the scores it gave stay. */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { removeEvaluator } from '../db/review/evaluators';
import { EvaluatorIdSchema } from '../schemas/evaluators';

export const removeEvaluatorAction = safeAction({
  name: 'removeEvaluator',
  schema: EvaluatorIdSchema,
  role: 'admin',
  handler: async ({ evaluatorId }, { principal }): Promise<{ removed: string }> => {
    if (!(await removeEvaluator(principal.tenant, evaluatorId))) throw new ActionError('not_found', 'No such evaluator in this tenant.');
    revalidatePath('/evaluators');
    return { removed: evaluatorId };
  },
});

'use server';
/** Adds an alert rule to the admin's working tenant, or changes its rule of that name (issue 37). */
import { revalidatePath } from 'next/cache';
import { safeAction } from '../boundary/safe-action';
import { saveAlertRule, type AlertRuleDto } from '../db/review/alerts';
import { AlertRuleInputSchema } from '../schemas/evaluators';

export const saveAlertRuleAction = safeAction({
  name: 'saveAlertRule',
  schema: AlertRuleInputSchema,
  role: 'admin',
  handler: async (input, { principal }): Promise<{ rule: AlertRuleDto }> => {
    const rule = await saveAlertRule(principal.tenant, { name: input.name, kind: input.kind, threshold: input.threshold, ...(input.kind === 'score_drop' && input.evaluator ? { evaluator: input.evaluator } : {}) }, principal.id);
    revalidatePath('/alerts');
    return { rule };
  },
});

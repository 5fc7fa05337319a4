'use server';
/** Removes one of the admin's tenant's alert rules (another tenant's: not found); its history stays. */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { removeAlertRule } from '../db/review/alerts';
import { AlertRuleIdSchema } from '../schemas/evaluators';

export const removeAlertRuleAction = safeAction({
  name: 'removeAlertRule',
  schema: AlertRuleIdSchema,
  role: 'admin',
  handler: async ({ ruleId }, { principal }): Promise<{ removed: string }> => {
    if (!(await removeAlertRule(principal.tenant, ruleId))) throw new ActionError('not_found', 'No such alert rule in this tenant.');
    revalidatePath('/alerts');
    return { removed: ruleId };
  },
});

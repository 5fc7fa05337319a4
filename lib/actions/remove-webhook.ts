'use server';
/** Removes one of the admin's tenant's webhooks with its delivery log (another tenant's: not found). */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { getDb } from '../db/core/client';
import { deleteWebhookEndpoint } from '../db/auth/webhooks';
import { WebhookEndpointIdSchema } from '../schemas/webhooks';

export const removeWebhookAction = safeAction({
  name: 'removeWebhook',
  schema: WebhookEndpointIdSchema,
  role: 'admin',
  handler: async ({ endpointId }, { principal }): Promise<{ removed: string }> => {
    if (!(await deleteWebhookEndpoint(getDb().prisma, principal.tenant, endpointId))) throw new ActionError('not_found', 'No such webhook in this tenant.');
    revalidatePath('/webhooks');
    return { removed: endpointId };
  },
});

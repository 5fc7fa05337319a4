'use server';
/**
 * Sends a logged delivery again (same body and webhook-id, a new signature and timestamp), as a job
 * with its own round of attempts. Another tenant's delivery is not found.
 */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { getDb } from '../db/core/client';
import { resetDelivery } from '../db/auth/webhooks';
import { deliveryQueueOf, getJobQueue } from '../jobs/queue';
import { WebhookDeliveryIdSchema } from '../schemas/webhooks';

export const redeliverWebhookAction = safeAction({
  name: 'redeliverWebhook',
  schema: WebhookDeliveryIdSchema,
  role: 'admin',
  handler: async ({ deliveryId }, { principal }): Promise<{ queued: string }> => {
    if (!(await resetDelivery(getDb().prisma, principal.tenant, deliveryId))) throw new ActionError('not_found', 'No such delivery in this tenant.');
    await deliveryQueueOf(getJobQueue()).enqueueDeliveries([deliveryId]);
    revalidatePath('/webhooks');
    return { queued: deliveryId };
  },
});

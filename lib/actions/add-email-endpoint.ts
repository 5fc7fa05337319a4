'use server';
/**
 * Adds an email notification to the admin's working tenant: its recipients, and the SMTP settings it
 * sets itself (each one left empty comes from the operator's STOCKROOM_SMTP_* variables; a setting
 * missing from both is refused naming the field). Its SMTP credentials are stored sealed and never
 * shown or sent back. It lives beside the webhooks: the same events, delivery log and redelivery.
 */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { getDb } from '../db/core/client';
import { createWebhookEndpoint, type WebhookEndpointDto } from '../db/auth/webhooks';
import { loadEvidenceKey } from '../governance/evidence-key';
import { checkEmailSettings, NotifyError } from '../notify';
import { EmailEndpointInputSchema } from '../schemas/webhooks';

export const addEmailEndpointAction = safeAction({
  name: 'addEmailEndpoint',
  schema: EmailEndpointInputSchema,
  role: 'admin',
  handler: async (input, { principal }): Promise<{ endpoint: WebhookEndpointDto }> => {
    let checked;
    try {
      checked = checkEmailSettings(input, loadEvidenceKey());
    } catch (err) {
      if (err instanceof NotifyError && err.field) throw new ActionError('invalid_input', err.message, { fieldErrors: { [err.field]: [err.message] } });
      throw err;
    }
    const endpoint = await createWebhookEndpoint(getDb().prisma, {
      tenant: principal.tenant,
      url: checked.url,
      format: 'email',
      events: input.events,
      role: input.role,
      secretSealed: checked.sealed,
      smtp: checked.smtp,
      createdBy: principal.id,
    });
    revalidatePath('/webhooks');
    return { endpoint };
  },
});

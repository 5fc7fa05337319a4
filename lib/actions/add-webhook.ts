'use server';
/**
 * Adds an outgoing webhook to the admin's working tenant. The URL must be http(s) and a target the
 * operator allows; the secret at least 24 bytes (or generated, and then shown this once). The
 * secret is stored sealed and never shown again.
 */
import { revalidatePath } from 'next/cache';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { getDb } from '../db/core/client';
import { createWebhookEndpoint, type WebhookEndpointDto } from '../db/auth/webhooks';
import { loadEvidenceKey } from '../governance/evidence-key';
import { checkEndpointSettings, NotifyError } from '../notify';
import { WebhookEndpointInputSchema } from '../schemas/webhooks';

export const addWebhookAction = safeAction({
  name: 'addWebhook',
  schema: WebhookEndpointInputSchema,
  role: 'admin',
  handler: async (input, { principal }): Promise<{ endpoint: WebhookEndpointDto; secret: string | null }> => {
    let checked;
    try {
      checked = checkEndpointSettings(input, loadEvidenceKey());
    } catch (err) {
      if (err instanceof NotifyError && err.field) throw new ActionError('invalid_input', err.message, { fieldErrors: { [err.field]: [err.message] } });
      throw err;
    }
    const endpoint = await createWebhookEndpoint(getDb().prisma, {
      tenant: principal.tenant,
      url: checked.url,
      format: input.format,
      events: input.events,
      role: input.role,
      secretSealed: checked.sealed,
      createdBy: principal.id,
    });
    revalidatePath('/webhooks');
    return { endpoint, secret: checked.generated };
  },
});

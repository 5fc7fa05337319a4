/**
 * Webhook deliveries as jobs on whichever queue the process has: its own module so the handlers
 * (which enqueue the deliveries a resume or a sweep records) need not import the queue factory.
 */
import { webhookAttempts, type DeliveryQueue } from '../notify';
import type { JobQueue } from './types';

/** Webhook deliveries as jobs: one per delivery, keyed by it, with the operator's attempts (STOCKROOM_WEBHOOK_ATTEMPTS). */
export function deliveryQueueOf(queue: JobQueue): DeliveryQueue {
  return {
    enqueueDeliveries: async (ids) => {
      if (ids.length === 0) return;
      const maxAttempts = webhookAttempts();
      for (const deliveryId of ids) await queue.enqueue('webhook', { deliveryId }, { key: `webhook:${deliveryId}`, maxAttempts });
    },
  };
}

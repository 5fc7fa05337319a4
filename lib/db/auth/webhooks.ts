import 'server-only';
/**
 * A tenant's webhook endpoints and their delivery log (models WebhookEndpoint, WebhookDelivery).
 * Every read and write names the tenant: another tenant's endpoint or delivery is not found. The
 * sealed secret (an email endpoint's SMTP credentials too) leaves this module only through
 * `deliveryToSend`, for the delivery job.
 */
import type { Prisma } from '../core';
import { newId } from '../core';

export interface WebhookEndpointDto {
  id: string;
  tenant: string;
  url: string;
  format: string;
  events: string[];
  role: string;
  failing: boolean;
  createdBy: string;
  createdAt: string;
  /** Email endpoints: the SMTP settings the endpoint sets itself (never its credentials); null for webhooks. */
  smtp: { host?: string; port?: number; secure?: boolean; from?: string } | null;
}

export interface WebhookDeliveryDto {
  id: string;
  endpointId: string;
  event: string;
  eventKey: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

type EndpointRow = { id: string; tenant: string; url: string; format: string; events: string; role: string; failing: boolean; createdBy: string; createdAt: Date; smtp: string | null };
const smtpOf = (json: string | null): WebhookEndpointDto['smtp'] => {
  if (json === null) return null;
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    return {
      ...(typeof v.host === 'string' ? { host: v.host } : {}),
      ...(typeof v.port === 'number' ? { port: v.port } : {}),
      ...(typeof v.secure === 'boolean' ? { secure: v.secure } : {}),
      ...(typeof v.from === 'string' ? { from: v.from } : {}),
    };
  } catch {
    return {};
  }
};
const eventsOf = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
};
const endpointDto = (r: EndpointRow): WebhookEndpointDto => ({
  id: r.id,
  tenant: r.tenant,
  url: r.url,
  format: r.format,
  events: eventsOf(r.events),
  role: r.role,
  failing: r.failing,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  smtp: smtpOf(r.smtp),
});
type DeliveryRow = { id: string; endpointId: string; event: string; eventKey: string; status: string; attempts: number; responseCode: number | null; lastError: string | null; createdAt: Date; deliveredAt: Date | null };
const deliveryDto = (r: DeliveryRow): WebhookDeliveryDto => ({
  id: r.id,
  endpointId: r.endpointId,
  event: r.event,
  eventKey: r.eventKey,
  status: r.status as WebhookDeliveryDto['status'],
  attempts: r.attempts,
  responseCode: r.responseCode,
  lastError: r.lastError,
  createdAt: r.createdAt.toISOString(),
  deliveredAt: r.deliveredAt?.toISOString() ?? null,
});

export interface NewEndpoint {
  tenant: string;
  url: string;
  format: string;
  events: readonly string[];
  role: string;
  secretSealed: string;
  createdBy: string;
  /** Email endpoints: their own SMTP settings as JSON. */
  smtp?: string | null;
}

export async function createWebhookEndpoint(prisma: Prisma, e: NewEndpoint): Promise<WebhookEndpointDto> {
  const row = await prisma.webhookEndpoint.create({ data: { id: newId(), ...e, events: JSON.stringify(e.events) } });
  return endpointDto(row);
}

export async function listWebhookEndpoints(prisma: Prisma, tenant: string): Promise<WebhookEndpointDto[]> {
  return (await prisma.webhookEndpoint.findMany({ where: { tenant }, orderBy: { createdAt: 'asc' } })).map(endpointDto);
}

export async function findWebhookEndpoint(prisma: Prisma, tenant: string, id: string): Promise<WebhookEndpointDto | null> {
  const row = await prisma.webhookEndpoint.findFirst({ where: { id, tenant } });
  return row ? endpointDto(row) : null;
}

/** Deletes the endpoint (and its log); false when the tenant has no such endpoint. */
export async function deleteWebhookEndpoint(prisma: Prisma, tenant: string, id: string): Promise<boolean> {
  return (await prisma.webhookEndpoint.deleteMany({ where: { id, tenant } })).count === 1;
}

/** The tenant's endpoints that receive `event` for reviewers of `role` (null: every endpoint). */
export async function endpointsForEvent(prisma: Prisma, tenant: string, event: string, role: string | null): Promise<WebhookEndpointDto[]> {
  const rows = await prisma.webhookEndpoint.findMany({ where: { tenant, ...(role ? { role } : {}) } });
  return rows.map(endpointDto).filter((e) => e.events.includes(event));
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/**
 * Records one delivery per endpoint for an event; an endpoint that already has the event (same
 * key) gets none. Returns the ids of the deliveries created, which are the ones to send.
 */
export async function recordDeliveries(prisma: Prisma, rows: ReadonlyArray<{ endpointId: string; tenant: string; event: string; eventKey: string; body: string }>): Promise<string[]> {
  const created: string[] = [];
  for (const r of rows) {
    const id = `msg_${newId()}`;
    try {
      await prisma.webhookDelivery.create({ data: { id, ...r, status: 'pending' } });
      created.push(id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  return created;
}

/** Whether an event was already recorded for any endpoint (escalation and warnings happen once). */
export async function eventRecorded(prisma: Prisma, tenant: string, eventKey: string): Promise<boolean> {
  return (await prisma.webhookDelivery.count({ where: { tenant, eventKey } })) > 0;
}

/** A delivery with what sending it needs (the endpoint's URL, format, sealed secret and SMTP settings). */
export interface DeliveryToSend {
  id: string;
  status: string;
  attempts: number;
  body: string;
  event: string;
  endpoint: { id: string; url: string; format: string; secretSealed: string; smtp: string | null };
}

export async function deliveryToSend(prisma: Prisma, id: string): Promise<DeliveryToSend | null> {
  const row = await prisma.webhookDelivery.findUnique({ where: { id }, include: { endpoint: { select: { id: true, url: true, format: true, secretSealed: true, smtp: true } } } });
  return row ? { id: row.id, status: row.status, attempts: row.attempts, body: row.body, event: row.event, endpoint: row.endpoint } : null;
}

/**
 * Records one attempt. `final`: the last attempt failed, so the delivery is given up and its
 * endpoint marked failing; a success clears the endpoint's failing mark.
 */
export async function recordAttempt(prisma: Prisma, id: string, endpointId: string, a: { ok: boolean; status: number | null; error: string | null; final: boolean }, now: Date): Promise<void> {
  const status = a.ok ? 'delivered' : a.final ? 'failed' : 'pending';
  await prisma.$transaction([
    prisma.webhookDelivery.update({
      where: { id },
      data: { attempts: { increment: 1 }, status, responseCode: a.status, lastError: a.error?.slice(0, 500) ?? null, ...(a.ok ? { deliveredAt: now } : {}) },
    }),
    ...(a.ok || a.final ? [prisma.webhookEndpoint.update({ where: { id: endpointId }, data: { failing: !a.ok } })] : []),
  ]);
}

/** The endpoint's newest deliveries first (the delivery log). */
export async function listWebhookDeliveries(prisma: Prisma, tenant: string, endpointId: string, limit = 100): Promise<WebhookDeliveryDto[]> {
  const rows = await prisma.webhookDelivery.findMany({ where: { tenant, endpointId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  return rows.map(deliveryDto);
}

/** Puts a delivery back to pending for another round of attempts (its count of attempts goes on); false when the tenant has no such delivery. */
export async function resetDelivery(prisma: Prisma, tenant: string, id: string): Promise<boolean> {
  return (await prisma.webhookDelivery.updateMany({ where: { id, tenant }, data: { status: 'pending' } })).count === 1;
}

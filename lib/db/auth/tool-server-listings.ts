import 'server-only';
/**
 * The Tools page's cache: per tenant and configured tool server, what its last refresh listed (or
 * why it could not), when, by whom and how long it took. Reading it spawns nothing.
 */
import type { JsonValue } from '../../harness';
import { getDb, type Database } from '../core';
import { parseStoredJson } from '../core';

export interface ToolServerListingDto {
  serverId: string;
  /** `{serverInfo, tools}` as listed, or null when the refresh failed. */
  listing: { serverInfo: { name: string; version: string } | null; tools: JsonValue[] } | null;
  error: string | null;
  refreshedAt: string;
  refreshedBy: string;
  durationMs: number;
  /** Whether the server publishes OAuth protected-resource metadata (null: not asked). */
  protectedResource: boolean | null;
}

/** Every cached listing of the tenant's servers. */
export async function getToolServerListings(tenant: string, db: Database = getDb()): Promise<ToolServerListingDto[]> {
  const rows = await db.prisma.toolServerListing.findMany({ where: { tenant } });
  return rows.map((r) => {
    const parsed = r.listing === null ? null : parseStoredJson(r.listing, 'tool server listing');
    const listing = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as unknown as ToolServerListingDto['listing']) : null;
    return { serverId: r.serverId, listing, error: r.error, refreshedAt: r.refreshedAt.toISOString(), refreshedBy: r.refreshedBy, durationMs: r.durationMs, protectedResource: r.protectedResource };
  });
}

export interface ListingToSave {
  serverId: string;
  listing: { serverInfo: { name: string; version: string } | null; tools: unknown[] } | null;
  error: string | null;
  durationMs: number;
  protectedResource: boolean | null;
}

/** Stores one refresh's outcome for each server, replacing what was cached. */
export async function saveToolServerListings(tenant: string, refreshedBy: string, listings: readonly ListingToSave[], db: Database = getDb()): Promise<void> {
  const refreshedAt = new Date();
  await db.prisma.$transaction(
    listings.map((l) => {
      const data = { listing: l.listing === null ? null : JSON.stringify(l.listing), error: l.error, refreshedAt, refreshedBy, durationMs: Math.round(l.durationMs), protectedResource: l.protectedResource };
      return db.prisma.toolServerListing.upsert({ where: { tenant_serverId: { tenant, serverId: l.serverId } }, create: { tenant, serverId: l.serverId, ...data }, update: data });
    }),
  );
}

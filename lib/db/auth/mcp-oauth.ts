import 'server-only';
/**
 * A tenant's OAuth credentials for its remote tool servers, sealed in McpOAuthCredential (AES-256-GCM
 * under a key derived from the evidence key, which lives outside the database), and the OAuth
 * client each server is reached with. Nothing here is ever sent to a browser: the Tools page gets
 * whether a server is authorized and until when.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { evidenceSecret } from '../../governance';
import type { OAuthCredentialStore, OAuthCredentials } from '../../mcp';
import { oauthProviderForServer } from '../../mcp';
import { oauthSealingKey, seal, unseal } from '../../mcp';
import { dashboardUrl, type ResolvedMcpServer } from '../../mcp';
import { getDb, type Database } from '../core';

let key: Buffer | undefined;
const sealingKey = () => (key ??= oauthSealingKey(evidenceSecret()));

/** The sealed credentials of (tenant, server), saved by whoever acts (`actor`). */
export function prismaCredentialStore(tenant: string, serverId: string, actor: string, db: Database = getDb()): OAuthCredentialStore {
  return {
    async load(): Promise<OAuthCredentials> {
      const row = await db.prisma.mcpOAuthCredential.findUnique({ where: { tenant_serverId: { tenant, serverId } } });
      const text = row ? unseal(sealingKey(), tenant, serverId, row.sealed) : null;
      // A value that does not open (another key, another row's) counts as no credentials.
      return text ? (JSON.parse(text) as OAuthCredentials) : {};
    },
    async save(credentials: OAuthCredentials): Promise<void> {
      const data = {
        sealed: seal(sealingKey(), tenant, serverId, JSON.stringify(credentials)),
        expiresAt: credentials.expiresAt ? new Date(credentials.expiresAt) : null,
        pendingState: credentials.state ?? null,
        updatedAt: new Date(),
        updatedBy: actor,
      };
      await db.prisma.mcpOAuthCredential.upsert({ where: { tenant_serverId: { tenant, serverId } }, create: { tenant, serverId, ...data }, update: data });
    },
  };
}

/** The OAuth client for a tenant's remote server (interactive only with `onRedirect`). */
export function tenantOAuthProvider(
  tenant: string,
  server: Extract<ResolvedMcpServer, { kind: 'http' }>,
  actor: string,
  onRedirect?: (url: URL) => void,
  db: Database = getDb(),
): OAuthClientProvider {
  return oauthProviderForServer(server, { store: prismaCredentialStore(tenant, server.id, actor, db), dashboardUrl: dashboardUrl(), ...(onRedirect ? { onRedirect } : {}) });
}

/** Which server an authorization in progress (its `state`) belongs to, within the tenant; null if none. */
export async function serverOfPendingState(tenant: string, state: string, db: Database = getDb()): Promise<string | null> {
  const row = await db.prisma.mcpOAuthCredential.findFirst({ where: { tenant, pendingState: state }, select: { serverId: true } });
  return row?.serverId ?? null;
}

export interface OAuthStatusDto {
  serverId: string;
  authorized: boolean;
  expiresAt: string | null;
  updatedAt: string;
  updatedBy: string;
}

/** What the Tools page may show of each server's credentials: whether a token is held, until when, set by whom. */
export async function oauthStatuses(tenant: string, db: Database = getDb()): Promise<OAuthStatusDto[]> {
  const rows = await db.prisma.mcpOAuthCredential.findMany({ where: { tenant } });
  return rows.map((r) => {
    const text = unseal(sealingKey(), tenant, r.serverId, r.sealed);
    const creds = text ? (JSON.parse(text) as OAuthCredentials) : {};
    return { serverId: r.serverId, authorized: creds.tokens !== undefined, expiresAt: r.expiresAt?.toISOString() ?? null, updatedAt: r.updatedAt.toISOString(), updatedBy: r.updatedBy };
  });
}

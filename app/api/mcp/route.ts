/**
 * The Stockroom inventory MCP server at /api/mcp (streamable HTTP, JSON responses) over the default
 * dataset. An initialize opens a session bound to the caller (lib/mcp/server/web-endpoint.ts): GET is
 * its notification stream, DELETE ends it; a POST outside a session is answered statelessly. `?weaknesses=a,b` selects the server's weakness flags. Callers present the
 * bearer token STOCKROOM_MCP_TOKEN, or a dashboard session with the operator role; Host and Origin
 * must name this deployment. Each caller has an environment of their own, and writes go through
 * the governance policy, the effect journal and the evidence chain (see lib/mcp/server/write-gate.ts); one
 * that needs approval becomes a request on the Approvals page, polled with `approval_status`
 * (lib/mcp/server/mcp-approvals.ts). A caller that has read a tool result with planted instructions
 * is tainted, and from then every write of theirs waits for a reviewer (lib/mcp/server/caller-taint.ts).
 * The caller's tenant's runs, suites and golden sets are resources (`stockroom://runs/{runId}`, …;
 * lib/runs/mcp-resources.ts); another tenant's are not found. In a session a run can be followed
 * (`resources/subscribe`): the server tells of each step and of its end.
 */
import path from 'node:path';
import { defaultDatasetDir } from '@/lib/stockroom/dataset/load-dataset';
import { allowedDatasets } from '@/lib/runs/datasets';
import { authorizeMcpRequest, mcpAuthRefusal, type McpCaller } from '@/lib/auth/mcp-route-auth';
import { bearerChallenge, resourceServerConfig, verifyResourceToken } from '@/lib/mcp/server/protected-resource';
import { dashboardUrl } from '@/lib/mcp/client/server-config';
import { holdsRole } from '@/lib/auth/authorize';
import { getIdentityByEmail } from '@/lib/db/governance/governance-members';
import { mcpOriginRefusal } from '@/lib/mcp/server/route-origin';
import { GovernedWrites } from '@/lib/mcp/server/write-gate';
import { currentPolicy } from '@/lib/governance/current-policy';
import { getDb } from '@/lib/db/core/client';
import { prismaGovernanceStore, prismaMcpApprovalStore } from '@/lib/db/governance/governance-store';
import { MCP_RUN_PREFIX } from '@/lib/mcp/server/mcp-approvals';
import { tenantResources } from '@/lib/runs/mcp-resources';
import { DEFAULT_TENANT, OPERATOR_SCOPES } from '@/lib/governance/principal';
import { endpoint } from './endpoint';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** This endpoint as an OAuth protected resource (its authorization server comes from the environment). */
const resource = () => resourceServerConfig(dashboardUrl());

/**
 * An OAuth access token: issued by the configured authorization server for this resource (audience),
 * naming (by email) a user of this dashboard who is an operator of the tenant it acts in (the
 * token's `tenant` claim, else the user's first operator tenant).
 */
async function oauthCaller(token: string): Promise<McpCaller> {
  const check = await verifyResourceToken(token, resource());
  // Valid for this resource but short of a scope: 403 naming it (RFC 6750), so the client can step up.
  if (!check.ok) return { ok: false, status: check.error === 'insufficient_scope' ? 403 : 401, message: check.message, error: check.error };
  const email = typeof check.claims.email === 'string' ? check.claims.email : null;
  const identity = email ? await getIdentityByEmail(getDb().prisma, email) : null;
  if (!identity) return { ok: false, status: 403, message: 'the token names no user of this dashboard' };
  const claimed = typeof check.claims.tenant === 'string' ? check.claims.tenant : undefined;
  const tenant = claimed ?? identity.memberships.find((m) => m.role === 'operator' || m.role === 'admin')?.tenant;
  if (!tenant || !holdsRole(identity.memberships, 'operator', tenant)) return { ok: false, status: 403, message: 'calling the tools needs the operator role' };
  return { ok: true, via: 'oauth', subject: identity.id, tenant };
}

/** Every method alike: the caller is authorized first, then the endpoint answers (a session's requests included). */
async function handle(request: Request): Promise<Response> {
  const origin = mcpOriginRefusal(request);
  if (origin) return origin;
  const caller = await authorizeMcpRequest(request, process.env.STOCKROOM_MCP_TOKEN, oauthCaller);
  if (!caller.ok) return mcpAuthRefusal(caller, (error) => bearerChallenge(resource(), error));
  const datasetTenant = allowedDatasets().find((d) => path.resolve(d.dir) === path.resolve(defaultDatasetDir()))?.tenant ?? DEFAULT_TENANT;
  // The served dataset is one tenant's: to anyone working in another tenant the endpoint does not exist.
  if (caller.tenant !== datasetTenant) {
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Not found: no MCP endpoint here for your tenant' } }, { status: 404 });
  }
  const db = getDb();
  const store = prismaGovernanceStore(db.prisma, { tenant: datasetTenant, subject: caller.subject });
  const key = `${caller.tenant}\n${caller.subject}`;
  const writes = new GovernedWrites({
    policy: currentPolicy(),
    principal: { subject: caller.subject, tenant: caller.tenant, scopes: [...OPERATOR_SCOPES] },
    // The served dataset's tenant (the caller's own, checked above); the policy's cross-tenant rule backs it up.
    runTenant: datasetTenant,
    journal: store.journal,
    evidence: store.evidence,
    runId: `${MCP_RUN_PREFIX}${caller.subject}`,
    // A write above a rule's limit waits for this tenant's reviewers on the Approvals page.
    approvals: prismaMcpApprovalStore(db),
    // Once this caller has read planted instructions, each write of theirs waits for a reviewer.
    taint: endpoint.taints.view(key),
  });
  // Runs, suites and golden sets as resources: the caller's tenant's only. A session is the key's
  // alone: another caller's session id is answered as not found.
  return endpoint.handle(request, { key, writes, resources: tenantResources(caller.tenant, db) });
}

export const POST = handle;
/** A session's stream of server notifications (a followed run's updates). */
export const GET = handle;
/** Ends a session. */
export const DELETE = handle;

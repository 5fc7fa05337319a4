/**
 * The Stockroom inventory MCP server at /api/mcp (streamable HTTP, stateless, JSON responses) over
 * the default dataset. `?weaknesses=a,b` selects the server's weakness flags. Callers present the
 * bearer token STOCKROOM_MCP_TOKEN, or a dashboard session with the operator role; Host and Origin
 * must name this deployment. Each caller has an environment of their own, and writes go through
 * the governance policy, the effect journal and the evidence chain (see lib/mcp/write-gate.ts); one
 * that needs approval becomes a request on the Approvals page, polled with `approval_status`
 * (lib/mcp/mcp-approvals.ts).
 */
import path from 'node:path';
import { defaultDatasetDir, loadDataset } from '@/lib/stockroom/dataset/load-dataset';
import { allowedDatasets } from '@/lib/runs/datasets';
import { StatelessMcpEndpoint } from '@/lib/mcp/web-endpoint';
import { authorizeMcpRequest, mcpAuthRefusal } from '@/lib/auth/mcp-route-auth';
import { mcpOriginRefusal } from '@/lib/mcp/route-origin';
import { GovernedWrites } from '@/lib/mcp/write-gate';
import { currentPolicy } from '@/lib/governance/current-policy';
import { getDb } from '@/lib/db/client';
import { prismaGovernanceStore, prismaMcpApprovalStore } from '@/lib/db/governance-store';
import { MCP_RUN_PREFIX } from '@/lib/mcp/mcp-approvals';
import { DEFAULT_TENANT, OPERATOR_SCOPES } from '@/lib/governance/principal';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// loadDataset memoises by directory, so this reads the files once per process.
const endpoint = new StatelessMcpEndpoint(() => loadDataset(defaultDatasetDir()));

export async function POST(request: Request): Promise<Response> {
  const origin = mcpOriginRefusal(request);
  if (origin) return origin;
  const caller = await authorizeMcpRequest(request);
  if (!caller.ok) return mcpAuthRefusal(caller);
  const datasetTenant = allowedDatasets().find((d) => path.resolve(d.dir) === path.resolve(defaultDatasetDir()))?.tenant ?? DEFAULT_TENANT;
  // The served dataset is one tenant's: to anyone working in another tenant the endpoint does not exist.
  if (caller.tenant !== datasetTenant) {
    return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Not found: no MCP endpoint here for your tenant' } }, { status: 404 });
  }
  const db = getDb();
  const store = prismaGovernanceStore(db.prisma);
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
  });
  return endpoint.post(request, { key: `${caller.tenant}\n${caller.subject}`, writes });
}

export function GET(): Response {
  return endpoint.methodNotAllowed();
}

export function DELETE(): Response {
  return endpoint.methodNotAllowed();
}

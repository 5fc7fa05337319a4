/**
 * The Stockroom inventory MCP server at /api/mcp (streamable HTTP, stateless, JSON responses) over
 * the default dataset. `?weaknesses=a,b` selects the server's weakness flags. Callers present the
 * bearer token STOCKROOM_MCP_TOKEN, or a dashboard session with the operator role.
 */
import { defaultDatasetDir, loadDataset } from '@/lib/stockroom/dataset/load-dataset';
import { StatelessMcpEndpoint } from '@/lib/mcp/web-endpoint';
import { authorizeMcpRequest, mcpAuthRefusal } from '@/lib/mcp/route-auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// loadDataset memoises by directory, so this reads the files once per process.
const endpoint = new StatelessMcpEndpoint(() => loadDataset(defaultDatasetDir()));

export async function POST(request: Request): Promise<Response> {
  const caller = await authorizeMcpRequest(request);
  if (!caller.ok) return mcpAuthRefusal(caller);
  return endpoint.post(request);
}

export function GET(): Response {
  return endpoint.methodNotAllowed();
}

export function DELETE(): Response {
  return endpoint.methodNotAllowed();
}

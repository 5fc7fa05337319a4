/**
 * The Stockroom inventory MCP server at /api/mcp (streamable HTTP, stateless, JSON responses) over
 * the default dataset. `?weaknesses=a,b` selects the server's weakness flags.
 */
import { defaultDatasetDir, loadDataset } from '@/lib/stockroom/dataset/load-dataset';
import { StatelessMcpEndpoint } from '@/lib/mcp/web-endpoint';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// loadDataset memoises by directory, so this reads the files once per process.
const endpoint = new StatelessMcpEndpoint(() => loadDataset(defaultDatasetDir()));

export function POST(request: Request): Promise<Response> {
  return endpoint.post(request);
}

export function GET(): Response {
  return endpoint.methodNotAllowed();
}

export function DELETE(): Response {
  return endpoint.methodNotAllowed();
}

/**
 * RFC 9728 Protected Resource Metadata for /api/mcp, at /.well-known/oauth-protected-resource and at
 * its path-suffixed form /.well-known/oauth-protected-resource/api/mcp (where the 401's
 * `WWW-Authenticate: Bearer resource_metadata=…` points). Public, as the RFC intends: it names the
 * resource, its authorization server and scopes, nothing secret.
 */
import { MCP_PATH, protectedResourceMetadata, resourceServerConfig } from '@/lib/mcp/server/protected-resource';
import { dashboardUrl } from '@/lib/mcp/client/server-config';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ path?: string[] }> }): Promise<Response> {
  const { path } = await params;
  const suffix = path && path.length > 0 ? `/${path.join('/')}` : '';
  // Only the one resource this dashboard protects has metadata.
  if (suffix !== '' && suffix !== MCP_PATH) return Response.json({ error: 'not_found' }, { status: 404 });
  return Response.json(protectedResourceMetadata(resourceServerConfig(dashboardUrl())), { headers: { 'cache-control': 'public, max-age=300' } });
}

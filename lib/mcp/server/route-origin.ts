/**
 * DNS-rebinding protection for /api/mcp, as the CLI server has it: Host (and Origin, when sent)
 * must name this deployment — the loopback names, the host of BETTER_AUTH_URL, and any listed in
 * STOCKROOM_MCP_ALLOWED_HOSTS (comma-separated). A right token does not make a foreign Host right.
 */
import { hostRefusal, LOOPBACK_HOSTNAMES } from './host-validation';

/** The hostnames /api/mcp answers to, from the environment. */
export function routeAllowedHostnames(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const names = new Set<string>(LOOPBACK_HOSTNAMES);
  const base = env.BETTER_AUTH_URL;
  if (base && URL.canParse(base)) names.add(new URL(base).hostname);
  for (const name of (env.STOCKROOM_MCP_ALLOWED_HOSTS ?? '').split(',')) {
    const trimmed = name.trim();
    if (trimmed) names.add(trimmed);
  }
  return [...names];
}

/** A 403 JSON-RPC answer when Host or Origin is foreign, else null. */
export function mcpOriginRefusal(request: Request, allowed: readonly string[] = routeAllowedHostnames()): Response | null {
  const refusal = hostRefusal(request.headers.get('host') ?? new URL(request.url).host, request.headers.get('origin') ?? undefined, allowed);
  if (refusal === null) return null;
  return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: refusal } }, { status: 403 });
}

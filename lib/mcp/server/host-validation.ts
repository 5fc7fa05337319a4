/**
 * DNS-rebinding protection for the HTTP server: a web page that rebinds its own name to 127.0.0.1
 * still sends its own name in Host (and Origin), so both must name a host we serve. The SDK's
 * transport options for this are deprecated in favour of middleware; this is that middleware for a
 * plain node:http server.
 */

/** Hostnames (no ports) accepted by default for a server bound to the loopback interface. */
export const LOOPBACK_HOSTNAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** Why a request must be refused, or null when its Host and Origin are allowed. */
export function hostRefusal(
  host: string | undefined,
  origin: string | undefined,
  allowedHostnames: readonly string[],
): string | null {
  if (!host) return 'Missing Host header';
  const hostname = hostnameOf(`http://${host}`);
  if (hostname === null) return `Invalid Host header: ${host}`;
  if (!allowedHostnames.includes(hostname)) return `Host not allowed: ${hostname}`;
  if (origin !== undefined) {
    const originHost = hostnameOf(origin);
    if (originHost === null || !allowedHostnames.includes(originHost)) return `Origin not allowed: ${origin}`;
  }
  return null;
}

/** The hostnames to accept for a bind address: loopback names, plus the address itself when specific. */
export function defaultAllowedHostnames(bindHost: string): string[] {
  const names: string[] = [...LOOPBACK_HOSTNAMES];
  const isWildcard = bindHost === '0.0.0.0' || bindHost === '::';
  const asHostname = bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
  if (!isWildcard && !names.includes(asHostname)) names.push(asHostname);
  return names;
}

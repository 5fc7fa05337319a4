/**
 * Who is on the other end of a request, for per-address limits (sign-in). The production server
 * (scripts/serve.mjs) stamps every request with the address it trusts, overwriting whatever the client
 * sent, and the app reads only that stamp:
 *   - by default the TCP peer's address: a client-supplied X-Forwarded-For is ignored (rotating it
 *     gets a client nowhere);
 *   - with STOCKROOM_TRUST_PROXY=true (the deployment sits behind one reverse proxy that appends the
 *     address it saw to X-Forwarded-For), the last X-Forwarded-For entry, which that proxy wrote.
 * Plain Node ESM, so the server runs it before anything is compiled.
 */
import { z } from 'zod';

/** The request header the server stamps; any client-sent value is overwritten. */
export const CLIENT_ADDRESS_HEADER = 'x-stockroom-client-address';

const TrustProxySchema = z
  .enum(['', 'true', 'false', '1', '0'], { error: (i) => `STOCKROOM_TRUST_PROXY must be true or false, got '${String(i.input)}'` })
  .transform((v) => v === 'true' || v === '1');

/** Parses STOCKROOM_TRUST_PROXY (unset: false); throws naming the variable on any other value. */
export function parseTrustProxy(raw) {
  const parsed = TrustProxySchema.safeParse((raw ?? '').trim().toLowerCase());
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'STOCKROOM_TRUST_PROXY is not valid');
  return parsed.data;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything else unchanged (trimmed). */
function normalize(address) {
  const a = address.trim();
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a;
}

/**
 * The client address of a Node request.
 * @param {{ headers: Record<string, string | string[] | undefined>, socket: { remoteAddress?: string } }} req
 * @param {boolean} trustProxy
 */
export function clientAddressOf(req, trustProxy) {
  const peer = normalize(req.socket.remoteAddress ?? 'unknown');
  if (!trustProxy) return peer;
  const raw = req.headers['x-forwarded-for'];
  const entries = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
  const last = entries.at(-1);
  return last ? normalize(last) : peer;
}

/** Overwrites the request's client-address stamp (and X-Forwarded-For, for libraries that read it). */
export function stampClientAddress(req, trustProxy) {
  const address = clientAddressOf(req, trustProxy);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  req.headers['x-forwarded-for'] = address;
  return address;
}

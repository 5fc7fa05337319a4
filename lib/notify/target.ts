/**
 * Where a webhook may be sent. An admin types the URL, so it must not become a way into the
 * server's own network: only http(s), no credentials in the URL, and — unless the operator allows
 * it (STOCKROOM_WEBHOOK_ALLOW_PRIVATE) — no loopback, private, link-local, shared, multicast or
 * reserved address. The check runs on the addresses the name resolves to at connect time (the
 * socket's own lookup), so a name that resolves somewhere else later cannot slip past it.
 */
import dns from 'node:dns';
import net from 'node:net';
import { NotifyError } from './errors';

const blocked = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net6, bits, 'ipv6');

/** True for an address a webhook may not reach without the operator's allowance. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: refused
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** Parses an endpoint URL as saved; refused naming the field `url`. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NotifyError('invalid_setting', 'url: not a valid URL', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NotifyError('invalid_setting', `url: must be http or https (got ${url.protocol.replace(/:$/, '')})`, 'url');
  if (url.username || url.password) throw new NotifyError('invalid_setting', 'url: must not carry a user name or password (sign with the secret instead)', 'url');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (net.isIP(host) ? isPrivateAddress(host) : /^localhost$|\.localhost$/i.test(host))) {
    throw new NotifyError('target_refused', `url: ${host} is a loopback, private or link-local address; the operator has not allowed such targets (STOCKROOM_WEBHOOK_ALLOW_PRIVATE)`, 'url');
  }
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A socket `lookup` that resolves like the system does and refuses every private address unless
 * allowed: the connection goes to an address this function approved, never to one resolved again.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as dns.LookupAddress[];
      const refused = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (refused) {
        const e = new NotifyError('target_refused', `${hostname} resolves to ${refused.address}, a loopback, private or link-local address (not allowed by the operator)`) as NotifyError & NodeJS.ErrnoException;
        e.code = 'target_refused';
        return callback(e, []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

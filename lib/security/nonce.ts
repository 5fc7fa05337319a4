import 'server-only';
/** The CSP nonce of the current request (set by proxy.ts), for server components that render an inline script. */
import { headers } from 'next/headers';
import { NONCE_HEADER } from './headers';

/** The request's nonce; reading it also makes the page render per request, which nonces need. */
export async function getNonce(): Promise<string | undefined> {
  return (await headers()).get(NONCE_HEADER) ?? undefined;
}

/**
 * Runs before every page: refuses a server-action body over 1 MB with a clear 413
 * (lib/security/action-body-limit.ts) and one that is not a well-formed argument list with a 400
 * naming what is wrong (lib/security/action-body-shape.ts), both before Next decodes it; sets a Content-Security-Policy with a fresh nonce (lib/security/headers.ts;
 * Next.js puts the nonce on its scripts while rendering) and sends a browser without a session cookie
 * to /sign-in. The session check is only the fast, optimistic one (the cookie's presence); every page,
 * action and route checks the session itself against the database, so a forged or expired cookie gets
 * no further than the page guard. The other security headers come from next.config.ts.
 */
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';
import { actionBodyTooLarge, actionBodyTooLargeResponse, isActionRequest } from './lib/security/action-body-limit';
import { actionBodyProblem, actionBodyProblemResponse } from './lib/security/action-body-shape';
import { newNonce, NONCE_HEADER, pageCsp } from './lib/security/headers';

/** Pages anyone may open without a session. */
const PUBLIC_PAGES = ['/sign-in'];

export async function proxy(request: NextRequest) {
  const nonce = newNonce();
  const csp = pageCsp(nonce, { dev: process.env.NODE_ENV === 'development' });
  if (isActionRequest(request)) {
    // The size first: only a body within the limit is read whole for its shape.
    const tooLarge = await actionBodyTooLarge(request);
    const problem = tooLarge ? null : await actionBodyProblem(request);
    if (tooLarge || problem !== null) {
      const refused = tooLarge ? actionBodyTooLargeResponse() : actionBodyProblemResponse(problem!);
      refused.headers.set('Content-Security-Policy', csp);
      return refused;
    }
  }
  const path = request.nextUrl.pathname;
  let response: NextResponse;
  if (getSessionCookie(request) || PUBLIC_PAGES.some((p) => path === p || path.startsWith(`${p}/`))) {
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set(NONCE_HEADER, nonce);
    requestHeaders.set('Content-Security-Policy', csp);
    response = NextResponse.next({ request: { headers: requestHeaders } });
  } else {
    const url = new URL('/sign-in', request.url);
    const next = path + request.nextUrl.search;
    if (next !== '/') url.searchParams.set('next', next);
    response = NextResponse.redirect(url);
  }
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  // Pages only: API routes answer 401 themselves and get their headers from next.config.ts, as do
  // static files.
  // .well-known: the OAuth protected-resource metadata is public (RFC 9728), like /api's own checks.
  matcher: ['/((?!api/|_next/|\\.well-known/|icon\\.svg|favicon\\.ico).*)'],
};

/**
 * Sends a browser without a session cookie to /sign-in before any page renders. This is only the
 * fast, optimistic check (the cookie's presence); every page, action and route checks the session
 * itself against the database, so a forged or expired cookie gets no further than the page guard.
 */
import { getSessionCookie } from 'better-auth/cookies';
import { NextResponse, type NextRequest } from 'next/server';

export function proxy(request: NextRequest) {
  if (getSessionCookie(request)) return NextResponse.next();
  const url = new URL('/sign-in', request.url);
  const next = request.nextUrl.pathname + request.nextUrl.search;
  if (next !== '/') url.searchParams.set('next', next);
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: API routes answer 401 themselves, and sign-in and static files need no session.
  matcher: ['/((?!api/|_next/|sign-in|icon\\.svg|favicon\\.ico).*)'],
};

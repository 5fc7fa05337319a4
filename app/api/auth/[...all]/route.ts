/** better-auth's endpoints (sign-in, sign-out, session) under /api/auth/*. */
import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '@/lib/auth/auth';

// Built on first request, so `next build` never opens the database.
const handler = () => toNextJsHandler(getAuth());

export const GET = (request: Request) => handler().GET(request);
export const POST = (request: Request) => handler().POST(request);

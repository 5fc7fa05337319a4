import 'server-only';
/**
 * Route handlers' twin of safeAction: parse the query (and path params) with zod, authorise, run,
 * answer JSON (or the handler's own Response, for downloads). Used by the read endpoints the replay and matrix pages poll, and by any mutating
 * route, so routes follow the same auth and error policy as actions.
 */
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { authorize, type Principal, type Role } from '../auth/authorize';
import { fieldErrorsOf } from './safe-action';
import { failureHeaders, toFailure } from './to-failure';

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export interface SafeRouteDefinition<S extends z.ZodType, T> {
  name: string;
  /** Parses `{ ...path params, ...query params }` (a repeated query key keeps its first value). */
  schema: S;
  role: Role;
  handler: (input: z.output<S>, ctx: { principal: Principal; request: Request }) => Promise<T>;
}

/** A GET/POST handler for `app/api/.../route.ts`. */
export function safeRoute<S extends z.ZodType, T>(def: SafeRouteDefinition<S, T>) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    try {
      // Authorise first: an anonymous caller gets 401 whatever it sent.
      const principal = await authorize(def.role, request.headers);
      const url = new URL(request.url);
      const raw: Record<string, unknown> = Object.fromEntries(url.searchParams.entries());
      Object.assign(raw, await context.params);
      const parsed = def.schema.safeParse(raw);
      if (!parsed.success) return NextResponse.json({ error: 'Invalid request.', fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
      const data = await def.handler(parsed.data, { principal, request });
      // A handler that builds its own answer (a file download) gets it sent as is.
      if (data instanceof Response) return data;
      return NextResponse.json(data, { headers: { 'cache-control': 'no-store' } });
    } catch (err) {
      const f = toFailure(err, def.name);
      return NextResponse.json({ error: f.error, code: f.code, fieldErrors: f.fieldErrors }, { status: f.status, headers: failureHeaders(f) });
    }
  };
}

import 'server-only';
/**
 * safeRoute's sibling for machine callers that present a bearer token instead of a session (the
 * OTLP receiver): authenticate first (401 with a Bearer challenge, whatever was sent), then run,
 * then the same error policy (toFailure) as every action and route.
 */
import { NextResponse } from 'next/server';
import { failureHeaders, toFailure } from './to-failure';

export interface BearerCaller {
  tenant: string;
  /** A label for the audit trail (never the token). */
  label: string;
}

export interface SafeBearerRouteDefinition {
  name: string;
  /** Realm named in the WWW-Authenticate challenge. */
  realm: string;
  /** The caller a token belongs to, or null; may throw a ConfigError when tokens are misconfigured. */
  authenticate: (token: string) => BearerCaller | null;
  handler: (request: Request, caller: BearerCaller) => Promise<Response>;
}

export function safeBearerRoute(def: SafeBearerRouteDefinition) {
  return async (request: Request): Promise<Response> => {
    try {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      const caller = token ? def.authenticate(token) : null;
      if (!caller) {
        return NextResponse.json(
          { error: token ? 'The bearer token is not valid.' : 'Send Authorization: Bearer <token> (a tenant token for this endpoint).', code: 'unauthenticated' },
          { status: 401, headers: { 'www-authenticate': `Bearer realm="${def.realm}"` } },
        );
      }
      return await def.handler(request, caller);
    } catch (err) {
      const f = toFailure(err, def.name);
      return NextResponse.json({ error: f.error, code: f.code, fieldErrors: f.fieldErrors }, { status: f.status, headers: failureHeaders(f) });
    }
  };
}

import 'server-only';
/**
 * The one wrapper every server action goes through: authorise the caller for the action's role
 * (first, so an anonymous caller learns nothing about the input schema), parse the input with its
 * zod schema, run it, and return a typed result. Errors are caught into `{ ok: false }` by the
 * shared policy (to-failure.ts), so no action can leak a stack or skip auth.
 */
import type { z } from 'zod';
import { authorize, type Principal, type Role } from '../auth/authorize';
import type { ActionResult } from './result';
import { toFailure } from './to-failure';

export interface SafeActionDefinition<S extends z.ZodType, T> {
  /** For logs. */
  name: string;
  schema: S;
  role: Role;
  handler: (input: z.output<S>, ctx: { principal: Principal }) => Promise<T>;
  /**
   * What the caller is told when the database is unavailable (code `db_unavailable`), in the
   * action's own words: "Your decision was not recorded: …". Defaults to the reason's text.
   */
  unavailable?: string;
}

/** zod issues as `{ field: [messages] }` (root issues under `_`). */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Builds an action: `(input: unknown) => Promise<ActionResult<T>>`. Treat it as a public endpoint. */
export function safeAction<S extends z.ZodType, T>(def: SafeActionDefinition<S, T>): (input: z.input<S>) => Promise<ActionResult<T>> {
  return async (raw: unknown) => {
    try {
      const principal = await authorize(def.role);
      const parsed = def.schema.safeParse(raw);
      if (!parsed.success) return { ok: false, error: 'Some fields are not valid.', code: 'invalid_input', fieldErrors: fieldErrorsOf(parsed.error) };
      return { ok: true, data: await def.handler(parsed.data, { principal }) };
    } catch (err) {
      const f = toFailure(err, def.name, { unavailable: def.unavailable });
      return f.fieldErrors ? { ok: false, error: f.error, code: f.code, fieldErrors: f.fieldErrors } : { ok: false, error: f.error, code: f.code };
    }
  };
}

/**
 * What every server action returns: data, or an error the UI can show (never a stack). `code` is
 * the error's stable class (`unauthenticated`, `forbidden`, `invalid_input`, `not_found`, …).
 */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; code?: string; fieldErrors?: Record<string, string[]> };

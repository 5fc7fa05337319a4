/** What every server action returns: data, or an error the UI can show (never a stack). */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string[]> };

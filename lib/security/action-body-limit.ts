/**
 * Server actions accept at most 1 MB of request body (Next's `serverActions.bodySizeLimit` default).
 * Over it, Next answered a bare 500; proxy.ts now answers first with 413 and a plain-text message,
 * which Next's client shows as the action's error (a text/plain 4xx becomes the thrown message), and
 * the action never runs, so nothing is written. Each field's own limit is checked by its zod schema
 * and reported on that field; this is the whole-request limit above them.
 */

/** Next's default server-action body limit, in bytes. */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/** What the user is told. */
export const ACTION_BODY_TOO_LARGE =
  'The form sent more than 1 MB, the most one request may carry. Nothing was saved. Shorten the longest field (a query, a reason) and try again.';

/** Whether a request is a server-action call (Next marks them with this header). */
export function isActionRequest(request: Request): boolean {
  return request.method === 'POST' && request.headers.has('next-action');
}

/**
 * Whether the request's body is over the limit: by its Content-Length when it declares one, else by
 * reading (a clone of) the body only until the limit is passed.
 */
export async function actionBodyTooLarge(request: Request, limit = ACTION_BODY_LIMIT_BYTES): Promise<boolean> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared)) return Number(declared) > limit;
  const body = request.clone().body;
  if (!body) return false;
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: cancelling one branch of a teed (cloned) body settles only once the other branch
      // is cancelled too, and that one belongs to Next.
      void reader.cancel().catch(() => undefined);
      return true;
    }
  }
}

/** The 413 answer (text/plain, so Next's client shows the message). */
export function actionBodyTooLargeResponse(): Response {
  return new Response(ACTION_BODY_TOO_LARGE, { status: 413, headers: { 'content-type': 'text/plain' } });
}

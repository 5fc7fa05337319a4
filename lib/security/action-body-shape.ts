/**
 * A server action's arguments arrive as the JSON of an argument list (React's encodeReply, sent as
 * text/plain). Next decodes that body before any action code runs, and a malformed one — not JSON,
 * empty, a bare value instead of a list, or nested thousands deep (its decoder recurses) — threw
 * inside the framework and was answered 500 with an error digest. proxy.ts checks the body's shape
 * in front of the decoder and answers 400 in plain text (Next's client shows it as the action's
 * error), naming what is wrong; the action never runs, so nothing is written. Multipart bodies
 * (forms with files) are left to the framework.
 */

/** Deeper than any argument an action takes (a golden set's case list is about 4 deep). */
export const ACTION_BODY_MAX_DEPTH = 64;

/** Whether the body is the JSON argument list (text/plain, or no content type at all). */
function isJsonArguments(request: Request): boolean {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  return type === '' || type.startsWith('text/plain');
}

/** The nesting depth of a parsed JSON value, counted without recursion (a deep value cannot overflow the check). */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 1 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > deepest) deepest = d;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push({ v: child, d: d + 1 });
  }
  return deepest;
}

/** What is wrong with the body's shape, in words for the person who sent it; null when it is a well-formed argument list. */
export function actionArgumentsProblem(text: string): string | null {
  if (text.trim() === '') return 'The request carried no arguments (body: empty). Nothing was saved.';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'The request’s arguments are not valid JSON (body). Nothing was saved.';
  }
  if (!Array.isArray(parsed)) return `The request’s arguments must be a list (body: got ${parsed === null ? 'null' : typeof parsed}). Nothing was saved.`;
  if (jsonDepth(parsed, ACTION_BODY_MAX_DEPTH) > ACTION_BODY_MAX_DEPTH) return `The request’s arguments are nested deeper than ${ACTION_BODY_MAX_DEPTH} levels (body). Nothing was saved.`;
  return null;
}

/** The body's problem for a JSON-argument action call (read from a clone, so Next still reads the original); null when fine or not JSON arguments. */
export async function actionBodyProblem(request: Request): Promise<string | null> {
  if (!isJsonArguments(request)) return null;
  return actionArgumentsProblem(await request.clone().text());
}

/** The 400 answer (text/plain, so Next's client shows the message). */
export function actionBodyProblemResponse(problem: string): Response {
  return new Response(problem, { status: 400, headers: { 'content-type': 'text/plain' } });
}

import { describe, expect, it } from 'vitest';
import { ACTION_BODY_LIMIT_BYTES, ACTION_BODY_TOO_LARGE, actionBodyTooLarge, actionBodyTooLargeResponse, isActionRequest } from './action-body-limit';

const action = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/runs', { method: 'POST', headers: { 'next-action': 'abc123', ...headers }, body, duplex: 'half' } as RequestInit);

function chunked(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(64 * 1024, left);
      left -= n;
      controller.enqueue(new Uint8Array(n));
    },
  });
}

describe('the server-action body limit', () => {
  it('recognises action calls only', () => {
    expect(isActionRequest(action('x'))).toBe(true);
    expect(isActionRequest(new Request('http://127.0.0.1/runs', { method: 'POST', body: 'x' }))).toBe(false);
  });

  it('refuses a body over 1 MB (by Content-Length when declared, else by reading), and lets one at the limit through', async () => {
    expect(await actionBodyTooLarge(action('x'.repeat(ACTION_BODY_LIMIT_BYTES + 1)))).toBe(true);
    expect(await actionBodyTooLarge(action('x'.repeat(ACTION_BODY_LIMIT_BYTES)))).toBe(false);
    expect(await actionBodyTooLarge(action('x', { 'content-length': String(ACTION_BODY_LIMIT_BYTES + 1) }))).toBe(true);
  });

  it('refuses a chunked body (no Content-Length) once it passes 1 MB', async () => {
    expect(await actionBodyTooLarge(action(chunked(ACTION_BODY_LIMIT_BYTES + 10)))).toBe(true);
    expect(await actionBodyTooLarge(action(chunked(1000)))).toBe(false);
  });

  it('answers 413 in plain text, which Next shows as the action error', async () => {
    const res = actionBodyTooLargeResponse();
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe(ACTION_BODY_TOO_LARGE);
  });
});

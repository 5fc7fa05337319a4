import { describe, expect, it } from 'vitest';
import { ACTION_BODY_MAX_DEPTH, actionArgumentsProblem, actionBodyProblem, actionBodyProblemResponse, jsonDepth } from './action-body-shape';

const action = (body: string, type = 'text/plain;charset=UTF-8') =>
  new Request('http://127.0.0.1/runs', { method: 'POST', headers: { 'next-action': 'abc123', 'content-type': type }, body });
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('a server action’s argument list, checked before Next decodes it', () => {
  it('lets a well-formed argument list through, as React encodes one', () => {
    expect(actionArgumentsProblem('[]')).toBeNull();
    expect(actionArgumentsProblem(JSON.stringify([{ email: 'a@example.com', password: 'x', next: '/runs' }]))).toBeNull();
    expect(actionArgumentsProblem(JSON.stringify([{ cases: [{ expectedTools: [{ args: { sku: 'SKU-1' } }] }] }]))).toBeNull();
    expect(actionArgumentsProblem(nested(ACTION_BODY_MAX_DEPTH))).toBeNull();
  });

  it('names an empty body, text that is not JSON, a bare value and an over-deep list, each as the body’s problem', () => {
    expect(actionArgumentsProblem('')).toMatch(/no arguments \(body: empty\)/);
    expect(actionArgumentsProblem('{"email":')).toMatch(/not valid JSON \(body\)/);
    expect(actionArgumentsProblem('"just a string"')).toMatch(/must be a list \(body: got string\)/);
    expect(actionArgumentsProblem('null')).toMatch(/got null/);
    expect(actionArgumentsProblem(nested(ACTION_BODY_MAX_DEPTH + 1))).toMatch(/deeper than 64 levels/);
    // 5,000 deep: the check itself does not recurse, so it answers rather than overflowing.
    expect(actionArgumentsProblem(nested(5000))).toMatch(/deeper than 64 levels/);
    for (const text of ['', 'x', '"s"', nested(5000)]) expect(actionArgumentsProblem(text)).toMatch(/Nothing was saved\.$/);
  });

  it('counts depth through objects and arrays alike', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth([])).toBe(1);
    expect(jsonDepth([{ a: [{}] }])).toBe(4);
  });

  it('reads a clone of JSON-argument requests only, leaving the body for Next; multipart forms are the framework’s', async () => {
    const req = action('not json');
    expect(await actionBodyProblem(req)).toMatch(/not valid JSON/);
    expect(await req.text()).toBe('not json');
    expect(await actionBodyProblem(action('garbage', 'multipart/form-data; boundary=x'))).toBeNull();
  });

  it('answers 400 in plain text, which Next shows as the action error', async () => {
    const res = actionBodyProblemResponse('The request carried no arguments (body: empty). Nothing was saved.');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toMatch(/no arguments/);
  });
});

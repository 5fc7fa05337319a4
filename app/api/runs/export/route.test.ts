/**
 * Issue 22 §6: `GET /api/runs/export?q=%22` answered 200 and then dropped the connection (the bad
 * filter was found only while streaming). A bad filter is now refused with 400, naming it, before
 * the first byte; a good one streams the CSV.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '@/lib/actions/testing/action-env';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env.cleanup();
});

async function get(query: string): Promise<Response> {
  const { GET } = await import('./route');
  const { headers } = await import('next/headers');
  return GET(new Request(`http://127.0.0.1/api/runs/export${query}`, { headers: await headers() }), { params: Promise.resolve({}) });
}

describe('GET /api/runs/export', () => {
  it('refuses a search text too short to search with 400 naming the filter, before streaming', async () => {
    env.as('viewer');
    for (const q of ['?q=%22', '?q=ab']) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as { fieldErrors?: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors ?? {})).toEqual(['text']);
    }
  });

  it('streams the CSV for a good filter', async () => {
    env.as('viewer');
    const res = await get('?q=SKU');
    expect(res.status).toBe(200);
    expect((await res.text()).split('\n')[0]).toContain('costUsd');
  });
});

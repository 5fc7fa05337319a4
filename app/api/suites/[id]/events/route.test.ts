/**
 * Issue 36, the first demo as the browser sees it: the matrix page polled its suite once a second,
 * so the finished table could wait that long after the last run was stored. The suite's status is
 * sent as server-sent events when it changes (queued, running, the end), one reader per suite in
 * the process, and the stream ends after the end, whose event carries the finished suite (the page
 * then needs no request to draw the table); another tenant's suite is not found.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '@/lib/actions/testing/action-env';
import { readServerEvents } from '@/lib/actions/testing/server-events';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

let env: ActionEnv;
beforeAll(async () => {
  env = await setUpActionEnv();
});
afterAll(async () => {
  await env.cleanup();
});

/** Opens the stream and collects its events as they arrive (`done` once it ends). */
async function open(id: string, signal?: AbortSignal) {
  const { GET } = await import('./route');
  const { headers } = await import('next/headers');
  const res = await GET(new Request(`http://127.0.0.1/api/suites/${id}/events`, { headers: await headers(), signal }), { params: Promise.resolve({ id }) });
  return { res, ...readServerEvents(res) };
}

async function newSuite(id: string, tenant = 'kittiwake') {
  const { createSuiteRun } = await import('@/lib/db/suites/suites');
  await createSuiteRun({ id, kind: 'matrix', total: 5, config: {}, datasetName: 'bundled', datasetHash: 'h', tenant });
  return id;
}

describe('GET /api/suites/[id]/events', () => {
  it('sends the status now and at each change — running, then done — then ends, one reader for two pages', async () => {
    const { markSuiteStarted } = await import('@/lib/db/suites/suite-jobs');
    const { getDb } = await import('@/lib/db/core/client');
    const { watchedSuites } = await import('@/lib/runs/suite-status-hub');
    const id = await newSuite('events-suite-0001');
    env.as('viewer');
    const a = await open(id);
    const b = await open(id);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get('content-type')).toContain('text/event-stream');
    await vi.waitFor(() => expect(a.events.at(-1)).toEqual({ event: 'status', data: { status: 'queued' } }));
    await vi.waitFor(() => expect(b.events.length).toBe(1));
    expect(watchedSuites()).toBe(1);

    await markSuiteStarted(id);
    await vi.waitFor(() => expect(a.events.at(-1)?.data).toEqual({ status: 'running' }));
    await getDb().prisma.suiteRun.update({ where: { id }, data: { status: 'done', finishedAt: new Date() } });
    await Promise.all([a.done, b.done]);
    expect(a.events.map((e) => e.data.status)).toEqual(['queued', 'running', 'done']);
    expect(b.events.at(-1)?.data.status).toBe('done');
    expect(watchedSuites()).toBe(0);
    // The end carries the finished suite as GET /api/suites/[id] answers it: the page draws it from the
    // event, with no request after the end (only the clock-dependent elapsedMs may differ).
    expect(a.events.slice(0, 2).map((e) => e.data)).toEqual([{ status: 'queued' }, { status: 'running' }]);
    const { GET } = await import('../route');
    const { headers } = await import('next/headers');
    const polled = (await (await GET(new Request(`http://127.0.0.1/api/suites/${id}`, { headers: await headers() }), { params: Promise.resolve({ id }) })).json()) as Record<string, unknown>;
    const pushed = a.events.at(-1)!.data.poll as Record<string, unknown>;
    expect((pushed.suite as { status: string }).status).toBe('done');
    expect({ ...pushed, elapsedMs: 0 }).toEqual({ ...polled, elapsedMs: 0 });
  });

  it('a suite this process finishes is read at once, though the job that finished it has its own copy of the module', async () => {
    // The production build holds several copies of lib/runs (the embedded queue's job handlers are the
    // instrumentation's): the nudge from the handlers' copy must reach the pollers the route's copy made.
    const { getDb } = await import('@/lib/db/core/client');
    const id = await newSuite('events-suite-0004');
    await getDb().prisma.suiteRun.update({ where: { id }, data: { status: 'running' } });
    vi.useFakeTimers({ toFake: ['setInterval'] }); // no read at the interval: only the nudge can tell
    try {
      const routes = await import('@/lib/runs/suite-status-hub');
      vi.resetModules();
      const handlers = await import('@/lib/runs/suite-status-hub');
      expect(handlers).not.toBe(routes);
      const seen: Array<string | null> = [];
      const stop = routes.watchSuiteStatus(id, 'kittiwake', (s) => seen.push(s?.status ?? null));
      for (let i = 0; i < 100 && seen.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual(['running']);
      await getDb().prisma.suiteRun.update({ where: { id }, data: { status: 'done', finishedAt: new Date() } });
      handlers.nudgeSuiteStatus(id);
      // Waited on the real clock (vi.waitFor would advance the faked interval and read without the nudge).
      for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual(['running', 'done']);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says `gone` when the suite is deleted while a page follows it', async () => {
    const { getDb } = await import('@/lib/db/core/client');
    const id = await newSuite('events-suite-0002');
    env.as('viewer');
    const s = await open(id);
    await vi.waitFor(() => expect(s.events.length).toBe(1));
    await getDb().prisma.suiteRun.delete({ where: { id } });
    await s.done;
    expect(s.events.at(-1)?.event).toBe('gone');
  });

  it('refuses a caller who is not signed in, and answers another tenant’s suite as not found', async () => {
    const id = await newSuite('events-suite-0003');
    env.as(null);
    expect((await open(id)).res.status).toBe(401);
    env.as('outsider');
    expect((await open(id)).res.status).toBe(404);
  });
});

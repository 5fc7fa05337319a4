/**
 * Issue 40, follow a run live: a running run's page is told of its progress as server-sent events
 * (on main it polled every second, so a stored step could wait that long to show). The stream sends
 * the progress now and at each change — a step stored, the streamed answer forming, the end — then
 * ends; one reader of the row serves every page watching the run; a run deleted meanwhile says `gone`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextCacheMock, nextHeadersMock, setUpActionEnv, type ActionEnv } from '@/lib/actions/testing/action-env';
import { readServerEvents } from '@/lib/actions/testing/server-events';
import { makeMeta, makeRun } from '@/lib/db/testing/run-fixtures';

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
  const res = await GET(new Request(`http://127.0.0.1/api/runs/${id}/events`, { headers: await headers(), signal }), { params: Promise.resolve({ id }) });
  return { res, ...readServerEvents(res) };
}

describe('GET /api/runs/[id]/events', () => {
  it('sends the progress now and at each change — a step, the answer forming, the end — then ends', async () => {
    const { saveRun, replaceRun } = await import('@/lib/db/runs/runs-write');
    const { storeAnswerSoFar } = await import('@/lib/db/runs/run-progress');
    const { watchedRuns } = await import('@/lib/runs/progress-hub');
    const meta = { ...makeMeta({ tenant: 'kittiwake' }), id: 'events-run-0001' };
    const first = { ...makeRun({ runId: 'h-events', rounds: 1 }), status: 'running' as const };
    await saveRun(first, meta);

    env.as('viewer');
    const a = await open(meta.id);
    const b = await open(meta.id);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get('content-type')).toContain('text/event-stream');
    await vi.waitFor(() => expect(a.events.at(-1)?.data).toMatchObject({ status: 'running', steps: first.steps }));
    // Two pages, one reader of the row.
    await vi.waitFor(() => expect(b.events.length).toBeGreaterThan(0));
    expect(watchedRuns()).toBe(1);

    await storeAnswerSoFar(meta.id, { step: first.steps + 1, text: 'SKU-2001 is in' }, undefined);
    await vi.waitFor(() => expect(a.events.at(-1)?.data).toMatchObject({ answerSoFar: { step: first.steps + 1, text: 'SKU-2001 is in' } }));

    const second = { ...makeRun({ runId: 'h-events', rounds: 2 }), status: 'running' as const };
    await replaceRun(second, meta);
    await vi.waitFor(() => expect(a.events.at(-1)?.data).toMatchObject({ status: 'running', steps: second.steps, answerSoFar: null }));

    await replaceRun(makeRun({ runId: 'h-events', rounds: 2 }), meta);
    await Promise.all([a.done, b.done]);
    expect(a.events.at(-1)?.data).toMatchObject({ status: 'finished' });
    expect(b.events.at(-1)?.data).toMatchObject({ status: 'finished' });
    // Each change was sent once, not once per poll.
    const keys = a.events.map((e) => JSON.stringify(e.data));
    expect(new Set(keys).size).toBe(keys.length);
    expect(watchedRuns()).toBe(0);
  });

  it('says `gone` when the run is deleted while a page follows it, and stops reading it', async () => {
    const { saveRun, deleteRun } = await import('@/lib/db/runs/runs-write');
    const { watchedRuns } = await import('@/lib/runs/progress-hub');
    const meta = { ...makeMeta({ tenant: 'kittiwake' }), id: 'events-run-0002' };
    await saveRun({ ...makeRun({ runId: 'h-gone', rounds: 1 }), status: 'running' }, meta);
    env.as('viewer');
    const s = await open(meta.id);
    await vi.waitFor(() => expect(s.events.length).toBe(1));
    await deleteRun(meta.id);
    await s.done;
    expect(s.events.at(-1)?.event).toBe('gone');
    expect(watchedRuns()).toBe(0);
  });

  it('stops reading when the page goes away', async () => {
    const { saveRun } = await import('@/lib/db/runs/runs-write');
    const { watchedRuns } = await import('@/lib/runs/progress-hub');
    const meta = { ...makeMeta({ tenant: 'kittiwake' }), id: 'events-run-0003' };
    await saveRun({ ...makeRun({ runId: 'h-left', rounds: 1 }), status: 'running' }, meta);
    env.as('viewer');
    const leaving = new AbortController();
    const s = await open(meta.id, leaving.signal);
    await vi.waitFor(() => expect(s.events.length).toBe(1));
    expect(watchedRuns()).toBe(1);
    leaving.abort();
    await s.done;
    expect(watchedRuns()).toBe(0);
  });

  it('refuses a caller who is not signed in, and answers another tenant’s run as not found', async () => {
    env.as(null);
    expect((await open('events-run-0003')).res.status).toBe(401);
    env.as('outsider');
    // (Its body is the same as a missing id's: lib/actions/testing/tenant-isolation-suite.ts.)
    expect((await open('events-run-0003')).res.status).toBe(404);
  });
});

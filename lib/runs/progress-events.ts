import 'server-only';
/** Live progress as server-sent events: a run's (app/api/runs/[id]/events) and a suite's (app/api/suites/[id]/events). */
import { watchRunProgress } from './progress-hub';
import { watchSuiteStatus, type SuiteStatusDto } from './suite-status-hub';
import type { Watcher } from './watch-hub';
import type { RunProgressDto } from '../db/runs';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** A stream is ended after this long; the browser reconnects (a bound on what one request holds). */
const MAX_STREAM_MS = 10 * 60_000;

/** A watcher of one row in a watch hub: calls back with its value (null: gone), returns the unsubscribe. */
type Watch<T> = (watcher: Watcher<T>) => () => void;

/**
 * The stream of `watch`'s values as `event` (and `gone` when the row is gone), ended once the hub says
 * the row has ended, the client leaves, or MAX_STREAM_MS passes.
 */
function eventStream<T>(event: string, watch: Watch<T>, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      let unwatch: (() => void) | null = null;
      const keepalive = setInterval(() => send(': keep-alive\n\n'), KEEPALIVE_MS);
      const limit = setTimeout(close, MAX_STREAM_MS);
      const onAbort = () => close();
      signal.addEventListener('abort', onAbort);
      cleanup = () => {
        unwatch?.();
        unwatch = null;
        clearInterval(keepalive);
        clearTimeout(limit);
        signal.removeEventListener('abort', onAbort);
      };
      // Retry after a cut in a second, not the browser's default three.
      send('retry: 1000\n\n');
      const stop = watch((value, ended) => {
        if (value === null) {
          send('event: gone\ndata: {}\n\n');
          close();
          return;
        }
        send(`event: ${event}\ndata: ${JSON.stringify(value)}\n\n`);
        if (ended) close();
      });
      // Told at once (another page already watches an ended row): closed before this line.
      if (closed) stop();
      else unwatch = stop;
      if (signal.aborted) close();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
}

export function progressEventStream(runId: string, signal: AbortSignal): Response {
  return eventStream<RunProgressDto>('progress', (w) => watchRunProgress(runId, w), signal);
}

/**
 * A suite's status (`status`: queued, running, then done, failed or cancelled), sent when it changes;
 * the end carries the finished suite (`poll`) and ends the stream. `tenant` is the caller's, checked.
 */
export function suiteStatusEventStream(suiteRunId: string, tenant: string, signal: AbortSignal): Response {
  return eventStream<SuiteStatusDto>('status', (w) => watchSuiteStatus(suiteRunId, tenant, w), signal);
}

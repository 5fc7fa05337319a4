import 'server-only';
/** A run's live progress as a server-sent events response (see app/api/runs/[id]/events). */
import { isLiveStatus } from '../format';
import { watchRunProgress } from './progress-hub';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** A stream is ended after this long; the browser reconnects (a bound on what one request holds). */
const MAX_STREAM_MS = 10 * 60_000;

export function progressEventStream(runId: string, signal: AbortSignal): Response {
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
      const stop = watchRunProgress(runId, (progress) => {
        if (progress === null) {
          send('event: gone\ndata: {}\n\n');
          close();
          return;
        }
        send(`event: progress\ndata: ${JSON.stringify(progress)}\n\n`);
        if (!isLiveStatus(progress.status)) close();
      });
      // Told at once (another page already watches an ended run): closed before this line.
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

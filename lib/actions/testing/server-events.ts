/** Test helper: reads a server-sent-events response as it arrives (the run and suite event streams). */

export interface ServerEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface ServerEventReader {
  /** The events read so far, in order (an `event:` line with a JSON `data:` line each). */
  events: ServerEvent[];
  /** Settles once the stream ends (or is aborted by the test). */
  done: Promise<void>;
  /** Whether the stream has ended. */
  ended(): boolean;
}

/** Starts reading `res`'s body in the background, collecting its events; comments and `retry:` lines are skipped. */
export function readServerEvents(res: Response): ServerEventReader {
  const events: ServerEvent[] = [];
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch {
      // aborted by the test
    }
  })().finally(() => {
    ended = true;
  });
  return { events, done, ended: () => ended };
}

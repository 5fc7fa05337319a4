/**
 * What every provider's streamed call keeps while the answer arrives: the time to the first token
 * (measured when the first piece of output arrives, not rebuilt afterwards), each text piece handed
 * to the caller's `onDelta`, and — for an attempt that fails mid-stream — what had arrived, bounded,
 * so the failed attempt's record can show it.
 */
import type { ConverseRequest, StreamedPartial } from '../harness';
import { ProviderCallError } from './errors';
import { PARTIAL_TEXT_MAX_CHARS } from './tunables';

export class StreamTap {
  private firstMs: number | null = null;
  private kept = '';
  private chars = 0;
  private events = 0;

  constructor(
    /** performance.now() when the request was sent. */
    private readonly started: number,
    private readonly onDelta?: ConverseRequest['onDelta'],
  ) {}

  /** An event arrived (any kind). */
  event(): void {
    this.events += 1;
  }

  /** A piece of output arrived: answer text (handed to onDelta) or a tool call's name or input. */
  output(piece: string, isText: boolean): void {
    if (this.firstMs === null) this.firstMs = round(performance.now() - this.started);
    this.chars += piece.length;
    if (this.kept.length < PARTIAL_TEXT_MAX_CHARS) this.kept += piece.slice(0, PARTIAL_TEXT_MAX_CHARS - this.kept.length);
    if (isText && piece !== '') this.onDelta?.({ text: piece });
  }

  /** Milliseconds from the request to the first piece of output; null when none arrived. */
  get timeToFirstTokenMs(): number | null {
    return this.firstMs;
  }

  /** What arrived so far (the text kept is at most PARTIAL_TEXT_MAX_CHARS); null when nothing did. */
  partial(): StreamedPartial | null {
    return this.events === 0 ? null : { text: this.kept, chars: this.chars, events: this.events };
  }

  /** `err` carrying what arrived before it (a ProviderCallError keeps its kind). */
  failed(err: ProviderCallError): ProviderCallError {
    const partial = this.partial();
    return partial ? err.withPartial(partial) : err;
  }

  /**
   * The stream ended without its final event (the server closed it cleanly but early): transient,
   * like a body cut mid-way, so the resilience layer retries it.
   */
  endedEarly(provider: string, finalEvent: string): ProviderCallError {
    return this.failed(new ProviderCallError('server_error', `${provider}'s stream ended before its final event (${finalEvent})`));
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

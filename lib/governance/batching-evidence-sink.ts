/**
 * Evidence of one run segment, stored in a few batches instead of one transaction per event (a
 * governed start appends a dozen events; 50 concurrent starts made that the bottleneck). Events
 * are held until just before a write is dispatched — so the decision and intent are durable before
 * anything reaches the downstream — and at the end of the segment (flush()).
 */
import type { EvidenceBody, EvidenceSink } from './evidence';

/** Whether the buffer must be stored before `body`'s moment passes: a write about to be sent. */
function flushesAt(body: EvidenceBody): boolean {
  return body.kind === 'effect' && body.effectStatus === 'dispatched';
}

export class BatchingEvidenceSink implements EvidenceSink {
  private buffer: EvidenceBody[] = [];

  constructor(private readonly inner: EvidenceSink) {}

  async append(body: EvidenceBody): Promise<void> {
    this.buffer.push(body);
    if (flushesAt(body)) await this.flush();
  }

  async appendMany(bodies: readonly EvidenceBody[]): Promise<void> {
    this.buffer.push(...bodies);
  }

  /** Everything held so far, in order, handed to the caller to store (with the records it is about). */
  take(): EvidenceBody[] {
    const bodies = this.buffer;
    this.buffer = [];
    return bodies;
  }

  /** Holds `bodies` again ahead of anything appended since (a store of what take() gave failed). */
  putBack(bodies: readonly EvidenceBody[]): void {
    this.buffer = [...bodies, ...this.buffer];
  }

  /** Stores everything held so far, in order. */
  async flush(): Promise<void> {
    const bodies = this.buffer;
    if (bodies.length === 0) return;
    this.buffer = [];
    if (this.inner.appendMany) {
      await this.inner.appendMany(bodies);
      return;
    }
    for (const b of bodies) await this.inner.append(b);
  }
}

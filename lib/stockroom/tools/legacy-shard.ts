/** The flaky legacy order shard (SPEC.md §7.4): the first `failFirst` lookups of an order time out. */
import { TransientToolError } from './errors';

export class LegacyShardSimulator {
  private readonly counts = new Map<string, number>();

  constructor(readonly failFirst: number) {}

  /** Counts one lookup of `orderId`; throws TransientToolError while it is within `failFirst`. */
  attempt(orderId: string): void {
    const n = (this.counts.get(orderId) ?? 0) + 1;
    this.counts.set(orderId, n);
    if (n <= this.failFirst) {
      throw new TransientToolError(`legacy order shard timed out looking up ${orderId} (attempt ${n}); retry later`);
    }
  }

  /** Lookups of `orderId` so far in this run. */
  attempts(orderId: string): number {
    return this.counts.get(orderId) ?? 0;
  }

  /** Clears the counters (start of a run). */
  reset(): void {
    this.counts.clear();
  }
}

/** Time is handed to the loop so tests can drive the wall-clock guard with a fake clock. */
export interface Clock {
  /** Milliseconds, monotonic within a run. */
  now(): number;
  /** ISO-8601 wall time for `startedAt`. */
  isoNow(): string;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  isoNow: () => new Date().toISOString(),
};

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(startMs = 0) {
    this.ms = startMs;
  }
  now(): number {
    return this.ms;
  }
  isoNow(): string {
    return new Date(Date.UTC(2026, 0, 1) + this.ms).toISOString();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

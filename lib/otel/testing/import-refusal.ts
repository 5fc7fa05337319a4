import { expect } from 'vitest';
import { TraceImportError } from '../errors';

/** The message of the TraceImportError `read` throws; fails the test when it accepts instead. */
export function importRefusal(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(TraceImportError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

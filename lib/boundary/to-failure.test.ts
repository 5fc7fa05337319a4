/** The error policy's log line (issue 22 §6): an unexpected error is logged without its message, which may quote content. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toFailure } from './to-failure';

describe('toFailure on an unexpected error', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers 500 with a reference, and logs the class, code and frames but not the message', () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    const err = Object.assign(new Error('Invalid `prisma.run.create()` invocation: { finalAnswer: "the customer’s secret prompt" }'), { code: 'P2000' });
    const f = toFailure(err, 'test');
    expect(f).toMatchObject({ status: 500, code: 'internal' });
    const ref = /ref (\w+)/.exec(f.error)?.[1];
    expect(logged.join('\n')).toContain(`ref ${ref}`);
    expect(logged.join('\n')).toContain('Error (P2000)');
    expect(logged.join('\n')).not.toContain('secret prompt');
  });
});

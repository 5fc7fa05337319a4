import { describe, expect, it } from 'vitest';
import { memoByText } from './text-memo';

describe('memoByText', () => {
  it('calls the function once per string it remembers, and gives the same answers as the function', () => {
    const seen: string[] = [];
    const upper = memoByText((s) => (seen.push(s), s.toUpperCase()));
    expect([upper('a'), upper('b'), upper('a'), upper('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(seen).toEqual(['a', 'b']);
  });

  it('remembers a null answer too', () => {
    let calls = 0;
    const none = memoByText(() => (calls++, null));
    none('x');
    none('x');
    expect(calls).toBe(1);
  });

  it('starts again when full, so it never holds more than its entries', () => {
    const seen: string[] = [];
    const id = memoByText((s) => (seen.push(s), s), 2);
    for (const s of ['a', 'b', 'c', 'a', 'b']) id(s);
    // 'c' found the cache full (a, b) and started it again: 'a' is computed again, 'b' too.
    expect(seen).toEqual(['a', 'b', 'c', 'a', 'b']);
  });
});

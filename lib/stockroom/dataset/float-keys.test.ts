import { describe, expect, it } from 'vitest';
import { collectFloatKeys } from './float-keys';

describe('collectFloatKeys', () => {
  it('collects the keys written with a decimal point or exponent, at any depth', () => {
    const text = '[{"price": 28.0, "qty": 3, "spec": {"weight": 1e3, "code": "7.5"}, "items": [{"unit": 2.50}]}]';
    expect([...collectFloatKeys(text, new Set())].sort()).toEqual(['price', 'unit', 'weight']);
  });

  it('attributes numbers inside an array to the key holding the array', () => {
    expect([...collectFloatKeys('{"scores": [1, 2.5], "n": [[3.0]]}', new Set())].sort()).toEqual(['n', 'scores']);
  });

  it('is not fooled by numbers, colons or quotes inside strings', () => {
    expect([...collectFloatKeys('{"k": ":5.0", "a\\"b": "x", "m": 1}', new Set())]).toEqual([]);
  });
});

/** Python-JSON against Python's own output (CPython 3: `repr(float)` and `json.dumps`, values pasted from it). */
import { describe, expect, it } from 'vitest';
import { pyFloatRepr, pyJson } from './pyjson';

describe('pyFloatRepr', () => {
  it('prints floats as Python repr does, inside and outside the plain range [1e-4, 1e16)', () => {
    const cases: Array<[number, string]> = [
      [0.1, '0.1'], [28, '28.0'], [1e15, '1000000000000000.0'], [1234.5, '1234.5'], [0.0001, '0.0001'], [0.00012345, '0.00012345'],
      [9.999e-5, '9.999e-05'], [1e16, '1e+16'], [1.5e16, '1.5e+16'], [123456789012345.67, '123456789012345.67'], [-2.5, '-2.5'],
      [-0, '-0.0'], [0, '0.0'], [1e-7, '1e-07'], [3.14159, '3.14159'], [2.675, '2.675'], [1e21, '1e+21'], [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'], [0.30000000000000004, '0.30000000000000004'], [100, '100.0'], [-1e-4, '-0.0001'],
    ];
    for (const [v, repr] of cases) expect(pyFloatRepr(v), String(v)).toBe(repr);
  });
});

describe('pyJson', () => {
  it('writes json.dumps output: separators, escapes, nesting and empty containers', () => {
    expect(pyJson({ b: [1, 2.5, null, true, 'é\n"'], a: {}, c: [], d: { x: 'y' } })).toBe('{"b": [1, 2.5, null, true, "\\u00e9\\n\\""], "a": {}, "c": [], "d": {"x": "y"}}');
  });

  it('sorts keys and keeps non-ASCII text when asked, and leaves out undefined members', () => {
    expect(pyJson({ b: [1, 2.5, null, true, 'é'], a: {}, z: undefined }, { sortKeys: true, ensureAscii: false })).toBe('{"a": {}, "b": [1, 2.5, null, true, "é"]}');
    expect(pyJson({ only: undefined })).toBe('{}');
  });

  it('prints an integral number under a float key as a float', () => {
    expect(pyJson({ price: 28, qty: 3, list: [2, 3] }, { floatKeys: new Set(['price', 'list']) })).toBe('{"price": 28.0, "qty": 3, "list": [2.0, 3.0]}');
  });
});

import { describe, expect, it } from 'vitest';
import { fsum, mean4, pyFloat, round4, roundTo } from './numbers';

describe('roundTo (Python round)', () => {
  it.each([
    [0.00005, 4, 0.0001], // stored slightly above the tie
    [0.00015, 4, 0.0001], // stored slightly below the tie
    [2.675, 2, 2.67],
    [0.125, 2, 0.12], // exact tie → even
    [0.375, 2, 0.38], // exact tie → even
    [-0.00005, 4, -0.0001],
    [1.00005, 4, 1.0001],
    [0.33335, 4, 0.3333],
    [2 / 3, 4, 0.6667],
    [49.6667 / 50, 4, 0.9933],
    [0.5, 0, 0],
    [1.5, 0, 2],
    [2.5, 0, 2],
    [123456.78905, 4, 123456.7891],
    [1e-320, 4, 0],
    [13273 / 820, 3, 16.187],
  ])('round(%s, %s) is %s', (x, n, want) => {
    expect(roundTo(x, n)).toBe(want);
  });

  it('keeps integers, zero and non-finite values as they are', () => {
    expect(round4(2019)).toBe(2019);
    expect(Object.is(round4(-0), -0)).toBe(true);
    expect(round4(Infinity)).toBe(Infinity);
    expect(Number.isNaN(round4(NaN))).toBe(true);
  });

  it('refuses a negative number of digits', () => {
    expect(() => roundTo(1, -1)).toThrow(RangeError);
  });
});

describe('fsum', () => {
  it('sums exactly where naive addition drifts', () => {
    expect(fsum(Array(10).fill(0.1))).toBe(1);
    expect(fsum([1e100, 1, -1e100, 1e-100])).toBe(1);
    expect(fsum([1e16, 1, 1e-16])).toBe(1.0000000000000002e16);
    expect(fsum([])).toBe(0);
  });
});

describe('mean4', () => {
  it('is the 4-dp fmean, and 0 for no values', () => {
    expect(mean4([])).toBe(0);
    expect(mean4([0.1, 0.1, 0.1, 0.7])).toBe(0.25);
    expect(mean4([1, 1, 0])).toBe(0.6667);
  });
});

describe('pyFloat (Python float())', () => {
  it.each([
    ['50', 50],
    [' 50 ', 50],
    ['1_000', 1000],
    ['5e2', 500],
    ['.5', 0.5],
    ['5.', 5],
    ['+3', 3],
    ['1_000.000_1', 1000.0001],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
  ])('converts %j', (text, want) => {
    expect(pyFloat(text)).toBe(want);
  });

  it.each(['', '   ', '1__0', '_1', '0x10', '1.5e', 'fifty'])('refuses %j', (text) => {
    expect(pyFloat(text)).toBeNull();
  });

  it('converts numbers and booleans, refuses null, lists and objects', () => {
    expect(pyFloat(50)).toBe(50);
    expect(pyFloat(true)).toBe(1);
    expect(pyFloat(null)).toBeNull();
    expect(pyFloat([1])).toBeNull();
    expect(pyFloat({ a: 1 })).toBeNull();
    expect(Number.isNaN(pyFloat('nan'))).toBe(true);
  });
});

describe('round4 (remembered)', () => {
  it('gives roundTo(x, 4) the first time and every time after, and keeps -0 and non-finite values', () => {
    const values = [0.00005, 1.00005, 2 / 3, 0.12345, -0.12345, 1891.66666, 0.5, 1e-9];
    const first = values.map(round4);
    expect(first).toEqual(values.map((v) => roundTo(v, 4)));
    expect(values.map(round4)).toEqual(first);
    expect(Object.is(round4(-0), -0)).toBe(true);
    expect(round4(0)).toBe(0);
    expect(round4(Infinity)).toBe(Infinity);
    expect(round4(NaN)).toBeNaN();
  });
});

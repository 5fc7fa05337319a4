import { describe, expect, it } from 'vitest';
import { canonicalDigest, canonicalJson, sha256Hex } from './canonical-json';
import { CanonicalJsonError } from './errors';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 does', () => {
    expect(canonicalJson({ '\u00e9': 1, z: 2, A: 3, '\ud83d\ude00': 4, '\uffff': 5 })).toBe('{"A":3,"z":2,"é":1,"😀":4,"\uffff":5}');
  });

  it('writes numbers in their shortest round-trip form and -0 as 0', () => {
    expect(canonicalJson([1.0, 0.1, 1e21, -0, 300])).toBe('[1,0.1,1e+21,0,300]');
  });

  it('gives equal digests for equal values whatever the key order', () => {
    expect(canonicalDigest({ a: 1, b: [1, 2] })).toBe(canonicalDigest({ b: [1, 2], a: 1 }));
    expect(canonicalDigest({ a: 1 })).not.toBe(canonicalDigest({ a: '1' }));
  });

  it('refuses undefined, non-finite numbers and cycles, naming the path', () => {
    expect(() => canonicalJson({ a: { b: undefined } })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ a: { b: undefined } })).toThrow('$.a.b');
    expect(() => canonicalJson([NaN])).toThrow('$[0]');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow('cycle');
  });

  it('hashes UTF-8 bytes as lower-case hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

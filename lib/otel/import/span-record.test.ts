/**
 * Spans are the import's untrusted input: every value the run is built from is checked here, so the
 * run built from them is stored without another schema pass (lib/db/runs builtRun, issue 36).
 */
import { describe, expect, it } from 'vitest';
import { importRefusal } from '../testing/import-refusal';
import { anyValue, attributes, toSpanRecord } from './span-record';
import { num } from './conventions/span-view';

const refusal = importRefusal;

describe('span values are checked before a run is built from them', () => {
  it('reads a non-finite double (protobuf carries them) as null, as the JSON spellings are', () => {
    expect(anyValue({ doubleValue: Infinity }, 'p')).toBeNull();
    expect(anyValue({ doubleValue: -Infinity }, 'p')).toBeNull();
    expect(anyValue({ doubleValue: NaN }, 'p')).toBeNull();
    expect(anyValue({ doubleValue: 'Infinity' }, 'p')).toBeNull();
    expect(anyValue({ doubleValue: 1.5 }, 'p')).toBe(1.5);
  });

  it('refuses an intValue of more digits than any integer has, naming its path', () => {
    expect(refusal(() => attributes([{ key: 'n', value: { intValue: '9'.repeat(400) } }], 'span.attributes'))).toContain('span.attributes[0].value.intValue');
    expect(attributes([{ key: 'n', value: { intValue: '-42' } }], 'a')).toEqual({ n: -42 });
  });

  it('takes no number the run could not hold from a string of digits', () => {
    expect(num('9'.repeat(400))).toBeNull();
    expect(num('12.5')).toBe(12.5);
    expect(num(Infinity)).toBeNull();
  });

  it('reads plain values as the full AnyValue reading does, and names the path of a bad one', () => {
    const list = [
      { key: 's', value: { stringValue: 'x'.repeat(5) } },
      { key: 'i', value: { intValue: 7 } },
      { key: 'b', value: { boolValue: true, intValue: 3 } },
      { key: 'd', value: { doubleValue: 0.25 } },
      { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '2' }] } } },
      { key: 'none', value: {} },
    ];
    expect(attributes(list, 'a')).toEqual({ s: 'xxxxx', i: 7, b: true, d: 0.25, arr: ['a', 2], none: null });
    expect(refusal(() => attributes([{ key: 'ok', value: { stringValue: 'before \ud800 after' } }], 'span.attributes'))).toContain('span.attributes[0].value.stringValue');
    expect(refusal(() => attributes([{ key: 'k\u0000', value: { stringValue: 'v' } }], 'span.attributes'))).toContain('span.attributes[0].key');
    expect(refusal(() => attributes([{ key: 'k', value: { stringValue: 3 } }], 'span.attributes'))).toContain('span.attributes[0].value.stringValue');
  });

  it('names the path of a bad id, and reads an all-zero parent as none', () => {
    const span = { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'chat', startTimeUnixNano: '1' };
    expect(refusal(() => toSpanRecord({ ...span, spanId: 'xyz' }, 'spans[3]', null))).toContain('spans[3].spanId');
    expect(refusal(() => toSpanRecord({ ...span, traceId: '0'.repeat(32) }, 'spans[3]', null))).toContain('spans[3].traceId: must not be all zeros');
    expect(toSpanRecord({ ...span, spanId: 'EEE19B7EC3C1B174', parentSpanId: '0'.repeat(16) }, 'spans[3]', null)).toMatchObject({ spanId: 'eee19b7ec3c1b174', parentSpanId: null });
  });
});

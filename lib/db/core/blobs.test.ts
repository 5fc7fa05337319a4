import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../harness/json';
import { BlobSet, decodeMessage, encodeMessage, PART_BLOB_MIN_CHARS, skeletonRefs } from './blobs';
import { fromRanges, settingOf, toRanges } from '../runs/run-rows';

function roundTrip(message: JsonValue, blobs = new BlobSet()): JsonValue {
  const { hash } = encodeMessage(message, blobs);
  const skeleton = JSON.parse(blobs.rows.get(hash)!.text) as JsonValue;
  return decodeMessage(skeleton, (h) => blobs.rows.get(h)!.text);
}

describe('message skeletons', () => {
  const big = { rows: 'x'.repeat(PART_BLOB_MIN_CHARS) };
  const msg = (id: string, part: JsonValue): JsonValue => ({
    role: 'user',
    content: [{ toolResult: { toolUseId: id, content: [part], status: 'success' } }],
  });

  it('stores a large tool-result part once across messages that differ only in tool-use id', () => {
    const blobs = new BlobSet();
    const a = encodeMessage(msg('a', { json: big }), blobs);
    const b = encodeMessage(msg('b', { json: structuredClone(big) }), blobs);
    expect(a.hash).not.toBe(b.hash);
    expect(a.refs).toEqual(b.refs);
    const holding = [...blobs.rows.values()].filter((r) => r.text.includes('xxxx'));
    expect(holding).toHaveLength(1);
  });

  it('rebuilds messages exactly, including text parts and small parts kept inline', () => {
    for (const m of [msg('a', { json: big }), msg('b', { text: 'y'.repeat(1000) }), msg('c', { json: { ok: 1 } }), { role: 'assistant', content: [{ text: 'hi' }] }]) {
      expect(roundTrip(m)).toEqual(m);
    }
  });

  it('keeps a part that imitates a reference as data', () => {
    const forged = msg('a', { $ref: 'deadbeef', as: 'json' } as JsonValue);
    const blobs = new BlobSet();
    const { hash } = encodeMessage(forged, blobs);
    expect(skeletonRefs(JSON.parse(blobs.rows.get(hash)!.text) as JsonValue)).toEqual([]);
    expect(roundTrip(forged)).toEqual(forged);
  });
});

describe('message ranges', () => {
  it('run-length encodes log positions and expands them back in order, repeats included', () => {
    const seqs = [0, 1, 2, 7, 3, 4, 4, 5];
    expect(toRanges(seqs)).toEqual([
      [0, 3],
      [7, 8],
      [3, 5],
      [4, 6],
    ]);
    expect(fromRanges(toRanges(seqs))).toEqual(seqs);
  });
});

describe('settingOf', () => {
  it('names no flags `none` and sorts and de-duplicates flags', () => {
    expect(settingOf([])).toBe('none');
    expect(settingOf(['oversized_payload', 'naive_retry', 'naive_retry'])).toBe('naive_retry+oversized_payload');
  });
});

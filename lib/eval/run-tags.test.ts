import { describe, expect, it } from 'vitest';
import { MAX_TAGS_PER_RUN, normaliseTag, RunTagsSchema, TagFilterSchema, tagsFromValues } from './run-tags';

describe('run tags', () => {
  it('keeps one form: NFC, trimmed, inner whitespace one space, case kept', () => {
    expect(normaliseTag('  Checkout\t v2 ')).toEqual({ ok: true, tag: 'Checkout v2' });
    expect(normaliseTag('cafe\u0301')).toEqual({ ok: true, tag: 'café' });
    expect(normaliseTag('   ')).toEqual({ ok: false, why: 'is empty' });
    expect(normaliseTag('a'.repeat(65))).toMatchObject({ ok: false, why: 'is longer than 64 characters' });
    expect(normaliseTag('bell\u0007')).toMatchObject({ ok: false, why: 'holds a control character' });
  });

  it('takes a caller’s tags as a list or one comma-separated text, each once and sorted, and refuses a bad one naming it', () => {
    expect(RunTagsSchema.parse('prod, beta,prod,, ')).toEqual(['beta', 'prod']);
    expect(RunTagsSchema.parse(['b', 'a,b'])).toEqual(['a,b', 'b']);
    expect(RunTagsSchema.parse(undefined)).toEqual([]);
    const bad = RunTagsSchema.safeParse(['ok', 'x'.repeat(70)]);
    expect(bad.success ? null : bad.error.issues[0]!.message).toMatch(/^the tag 'x+' is longer than 64 characters$/);
    const many = RunTagsSchema.safeParse(Array.from({ length: MAX_TAGS_PER_RUN + 1 }, (_, i) => `t${i}`));
    expect(many.success ? null : many.error.issues[0]!.message).toBe(`at most ${MAX_TAGS_PER_RUN} tags a run (${MAX_TAGS_PER_RUN + 1} given)`);
  });

  it('takes a trace’s tags as far as they are good, naming each one left out', () => {
    const { tags, left } = tagsFromValues([['prod', ' beta '], '["eu", "prod"]', 'plain', 7, ['', 'z'.repeat(80)]]);
    expect(tags).toEqual(['beta', 'eu', 'plain', 'prod']);
    expect(left.map((l) => l.why)).toEqual(['is empty', 'is longer than 64 characters']);
    const over = tagsFromValues([Array.from({ length: MAX_TAGS_PER_RUN + 2 }, (_, i) => `t${String(i).padStart(2, '0')}`)]);
    expect(over.tags).toHaveLength(MAX_TAGS_PER_RUN);
    expect(over.left.map((l) => l.tag)).toEqual([`t${MAX_TAGS_PER_RUN}`, `t${MAX_TAGS_PER_RUN + 1}`]);
  });

  it('reads a filter’s tag in the stored form; blank is no filter', () => {
    expect(TagFilterSchema.parse(' prod ')).toBe('prod');
    expect(TagFilterSchema.parse('  ')).toBeUndefined();
    expect(TagFilterSchema.safeParse('q'.repeat(65)).success).toBe(false);
  });
});

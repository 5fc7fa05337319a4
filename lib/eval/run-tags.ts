/**
 * Tags on runs (issue 37): short labels a run is started or traced with (`production`, `checkout-v2`),
 * which the runs list, evaluator filters and the trends page group and filter by. One form for all:
 * Unicode NFC, trimmed, inner whitespace one space, 1–MAX_TAG_CHARS characters without control
 * characters, at most MAX_TAGS_PER_RUN a run, each once, sorted. A caller who sends a bad tag is
 * refused naming it (RunTagsSchema); a trace's tags are taken as far as they are good and the rest
 * named on the run (tagsFromValues).
 */
import { z } from 'zod';

/** Longest tag kept (characters). */
export const MAX_TAG_CHARS = 64;
/** Most tags a run carries. */
export const MAX_TAGS_PER_RUN = 20;

/** Why a raw tag is not one, or null when it is. */
function tagProblem(tag: string): string | null {
  if (tag === '') return 'is empty';
  if ([...tag].length > MAX_TAG_CHARS) return `is longer than ${MAX_TAG_CHARS} characters`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(tag)) return 'holds a control character';
  return null;
}

/** A tag in its one stored form, or why it cannot be one. */
export function normaliseTag(raw: string): { ok: true; tag: string } | { ok: false; why: string } {
  const tag = raw.normalize('NFC').trim().replace(/[ \t\r\n]+/g, ' ');
  const why = tagProblem(tag);
  return why === null ? { ok: true, tag } : { ok: false, why };
}

/** One tag a filter asks for (runs list, evaluator filter), in its stored form; blank: none. A bad one is refused saying why. */
export const TagFilterSchema = z
  .string()
  .max(1_000)
  .optional()
  .transform((t, ctx) => {
    if (t === undefined || t.trim() === '') return undefined;
    const n = normaliseTag(t);
    if (!n.ok) {
      ctx.addIssue({ code: 'custom', message: `the tag ${n.why}` });
      return z.NEVER;
    }
    return n.tag;
  });

/** Distinct tags, sorted (the order they are stored and shown in). */
const distinct = (tags: readonly string[]) => [...new Set(tags)].sort();

/**
 * What a caller sends as a run's tags: a list, or one text of tags separated by commas (a form
 * field). Each refused tag is named; more than MAX_TAGS_PER_RUN distinct tags are refused.
 */
export const RunTagsSchema = z
  .union([z.array(z.string().max(1_000)).max(1_000), z.string().max(10_000)])
  .optional()
  .transform((value, ctx) => {
    const raw = value === undefined ? [] : typeof value === 'string' ? value.split(',').filter((t) => t.trim() !== '') : value;
    const tags: string[] = [];
    for (const r of raw) {
      const n = normaliseTag(r);
      if (!n.ok) {
        ctx.addIssue({ code: 'custom', message: `the tag '${r.slice(0, 80)}' ${n.why}` });
        return z.NEVER;
      }
      tags.push(n.tag);
    }
    const out = distinct(tags);
    if (out.length > MAX_TAGS_PER_RUN) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_TAGS_PER_RUN} tags a run (${out.length} given)` });
      return z.NEVER;
    }
    return out;
  });

/**
 * A trace's tag values (strings, lists of strings, or a list sent as JSON text) as a run's tags: the
 * good ones, at most MAX_TAGS_PER_RUN (the first in sorted order), and each one left out with why.
 */
export function tagsFromValues(values: readonly unknown[]): { tags: string[]; left: Array<{ tag: string; why: string }> } {
  const raw: string[] = [];
  const take = (v: unknown): void => {
    if (typeof v === 'string') {
      const text = v.trim();
      if (text.startsWith('[')) {
        try {
          const list: unknown = JSON.parse(text);
          if (Array.isArray(list)) return list.forEach(take);
        } catch {
          // not JSON: one tag
        }
      }
      raw.push(v);
    } else if (Array.isArray(v)) v.forEach(take);
  };
  values.forEach(take);
  const good: string[] = [];
  const left: Array<{ tag: string; why: string }> = [];
  for (const r of raw) {
    const n = normaliseTag(r);
    if (n.ok) good.push(n.tag);
    else left.push({ tag: r.slice(0, MAX_TAG_CHARS), why: n.why });
  }
  const all = distinct(good);
  for (const tag of all.slice(MAX_TAGS_PER_RUN)) left.push({ tag, why: `is past the ${MAX_TAGS_PER_RUN} tags a run keeps` });
  return { tags: all.slice(0, MAX_TAGS_PER_RUN), left };
}

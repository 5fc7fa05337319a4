/**
 * Text the database can store as it was typed: no unpaired UTF-16 surrogate (`\ud800`) and no NUL,
 * which PostgreSQL refuses (and which would fail a run half-way, after its writes). Refused at the
 * input, with a field error, before anything runs.
 */
import type { z } from 'zod';

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or null when it can. */
export function textProblem(text: string): string | null {
  if (UNPAIRED_SURROGATE.test(text)) return 'contains an unpaired surrogate (not valid Unicode text)';
  if (text.includes('\u0000')) return 'contains a NUL character';
  return null;
}

/** A string schema that also refuses text the database cannot store. */
export function storableText<S extends z.ZodType<string | undefined>>(schema: S): S {
  return schema.superRefine((value, ctx) => {
    const problem = typeof value === 'string' ? textProblem(value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: `the text ${problem}` });
  }) as unknown as S;
}

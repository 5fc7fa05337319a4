/**
 * Redaction at rest (issue 33): the data classes a tenant keeps out of storage, and the redactor that
 * takes them out of a text before anything is written. The classes use the guardrails' detectors —
 * cards confirmed by Luhn, IBANs by mod-97, e-mail, phone, and every credential shape `no_secrets`
 * knows — one detector per class; a tenant adds its own named patterns. A value goes as
 * `[REDACTED:<class>]`, or, pseudonymised, as `⟨<class>:<12 hex>⟩`: HMAC-SHA256 of the value under the
 * subject's key, so the same value of the same subject is the same token (a run stays readable and
 * comparable) and a token cannot be linked back once the key is destroyed (erasure).
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { scanText } from '../harness';

/** The built-in classes, each one detector of the guardrails. */
export const REDACTION_CLASSES = ['card', 'iban', 'email', 'phone', 'secret'] as const;
export type RedactionClass = (typeof REDACTION_CLASSES)[number];

/** Hex characters of the HMAC a token keeps (48 bits: collisions within a subject are negligible). */
export const PSEUDONYM_HEX_CHARS = 12;

const PatternSchema = z.strictObject({
  /** The class the pattern's matches are redacted as (`⟨name:…⟩`). */
  name: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'a pattern name is lower-case letters, digits and _ (at most 32)'),
  regex: z.string().min(1, 'a pattern needs a regex'),
});

/** `tenants.<t>.redaction` in the policy file. */
export const RedactionSchema = z
  .strictObject({
    classes: z.array(z.enum(REDACTION_CLASSES)).default([]).describe('the built-in classes taken out (the guardrails\' detectors)'),
    patterns: z.array(PatternSchema).default([]).describe('your own classes: every match of `regex` is taken out as `name`'),
    pseudonymise: z.boolean().default(false).describe('a value becomes a per-subject token (`⟨email:3f9a0c…⟩`) instead of `[REDACTED:email]`'),
  })
  .superRefine((r, ctx) => {
    r.patterns.forEach((p, i) => {
      try {
        new RegExp(p.regex, 'g');
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['patterns', i, 'regex'], message: `pattern '${p.name}': not a valid regular expression (${(err as Error).message})` });
      }
      if ((REDACTION_CLASSES as readonly string[]).includes(p.name)) {
        ctx.addIssue({ code: 'custom', path: ['patterns', i, 'name'], message: `pattern '${p.name}' has the name of a built-in class` });
      }
    });
  });
export type RedactionPolicy = z.infer<typeof RedactionSchema>;

/** What one location of a stored object lost: `count` values of `class` at `where` (`query`, `tool result at step 3`). */
export interface Redaction {
  class: string;
  count: number;
  where: string;
}

/** A marker already in a text (redacted upstream: an imported span, the in-loop guardrail). */
const MARKER = /\[REDACTED:([a-z0-9_]+)\]|⟨([a-z0-9_]+):[0-9a-f]{12}⟩/g;

const SECRET_KINDS = new Set(['private_key', 'aws_access_key', 'api_key', 'google_api_key', 'github_token', 'slack_token', 'jwt', 'bearer_token']);

/**
 * What every built-in class needs at least (an `@`; 9 digits for a phone, 13 for a card; an IBAN's
 * country and check digits; a credential's prefix): a text with none of them is not scanned. Most of a
 * run's strings (ids, names, numbers, short words) are passed over at the cost of one look.
 */
const MAY_HOLD = /@|[A-Z]{2}\d{2}|-----BEGIN|AKIA|ASIA|sk-|AIza|gh[pousr]_|xox[abposr]-|eyJ|Bearer/;

function mayHold(text: string): boolean {
  if (text.length < 6) return false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++digits >= 9) return true;
  }
  return MAY_HOLD.test(text);
}

/** The class of a detector finding's kind (a credential shape is `secret`). */
function classOf(kind: string): string {
  return SECRET_KINDS.has(kind) ? 'secret' : kind;
}

interface Span {
  start: number;
  end: number;
  cls: string;
  value: string;
}

/**
 * Takes a tenant's classes out of texts. `text` returns the text with each value replaced; the
 * redactions are tallied per class and location (`where`), each distinct text counted once (a run's
 * messages repeat its question on every call: the question counts where it first appears).
 */
export class Redactor {
  readonly #detectors: Array<'no_pii' | 'no_secrets'>;
  readonly #classes: Set<string>;
  readonly #patterns: Array<{ name: string; re: RegExp }>;
  readonly #key: Buffer | null;
  readonly #seen = new Map<string, string>();
  /** Objects already walked (a run's messages share one object across every call that saw it). */
  readonly #walked = new WeakMap<object, unknown>();
  readonly #tally = new Map<string, Redaction>();
  readonly #keep: ReadonlySet<string>;

  /**
   * `key`: the subject's pseudonym key when the policy pseudonymises (null: values become `[REDACTED:class]`).
   * `keep`: texts stored as they are — the subject's own ids (a user.id that is an e-mail address),
   * which erasure finds the subject's content by.
   */
  constructor(policy: RedactionPolicy, key: Buffer | null, keep: Iterable<string> = []) {
    this.#keep = new Set([...keep].filter((k) => k !== ''));
    this.#classes = new Set(policy.classes);
    const pii = policy.classes.some((c) => c !== 'secret');
    this.#detectors = [...(this.#classes.has('secret') ? (['no_secrets'] as const) : []), ...(pii ? (['no_pii'] as const) : [])];
    this.#patterns = policy.patterns.map((p) => ({ name: p.name, re: new RegExp(p.regex, 'g') }));
    this.#key = policy.pseudonymise ? key : null;
  }

  /** What stands for `value` of class `cls`. */
  token(cls: string, value: string): string {
    if (!this.#key) return `[REDACTED:${cls}]`;
    return `⟨${cls}:${createHmac('sha256', this.#key).update(`${cls}\u0000${value}`).digest('hex').slice(0, PSEUDONYM_HEX_CHARS)}⟩`;
  }

  #count(cls: string, where: string, n = 1): void {
    const k = `${where}\u0000${cls}`;
    const r = this.#tally.get(k);
    if (r) r.count += n;
    else this.#tally.set(k, { class: cls, count: n, where });
  }

  /** `text` without the tenant's classes; `where` names the location for the record. */
  text(text: string, where: string): string {
    const seen = this.#seen.get(text);
    if (seen !== undefined) return seen;
    if (this.#keep.has(text)) return text;
    const spans: Span[] = [];
    if (this.#detectors.length > 0 && mayHold(text)) {
      for (const f of scanText(text, this.#detectors)) {
        const cls = classOf(f.kind);
        if (this.#classes.has(cls)) spans.push({ start: f.start, end: f.end, cls, value: f.value });
      }
    }
    for (const p of this.#patterns) {
      p.re.lastIndex = 0;
      for (const m of text.matchAll(p.re)) {
        if (m[0].length === 0) continue;
        spans.push({ start: m.index, end: m.index + m[0].length, cls: p.name, value: m[0] });
      }
    }
    let out = text;
    if (spans.length > 0) {
      spans.sort((a, b) => a.start - b.start || b.end - a.end);
      out = '';
      let at = 0;
      for (const s of spans) {
        if (s.start < at) continue;
        out += text.slice(at, s.start) + this.token(s.cls, s.value);
        at = s.end;
        this.#count(s.cls, where);
      }
      out += text.slice(at);
    } else if (text.includes('[REDACTED:') || text.includes('⟨')) {
      // Redacted before it reached here (an imported trace's raw rows, the in-loop guardrail): listed too.
      for (const m of text.matchAll(MARKER)) this.#count(m[1] ?? m[2]!, where);
    }
    this.#seen.set(text, out);
    return out;
  }

  /** Every string inside a JSON value redacted (object keys kept). */
  json<T>(value: T, where: string): T {
    return this.#walk(value, where) as T;
  }

  #walk(value: unknown, where: string): unknown {
    if (typeof value === 'string') return this.text(value, where);
    if (value === null || typeof value !== 'object') return value;
    if (this.#walked.has(value)) return this.#walked.get(value);
    const out = this.#walkObject(value, where);
    this.#walked.set(value, out);
    return out;
  }

  #walkObject(value: object, where: string): unknown {
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const r = this.#walk(v, where);
        if (r !== v) changed = true;
        return r;
      });
      return changed ? out : value;
    }
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = this.#walk(v, where);
      if (r !== v) changed = true;
      out[k] = r;
    }
    return changed ? out : value;
  }

  /** The redactions so far, in the order first found. */
  redactions(): Redaction[] {
    return [...this.#tally.values()].map((r) => ({ ...r }));
  }
}

/** Whether a policy redacts anything at all. */
export function redactsAnything(policy: RedactionPolicy | undefined): policy is RedactionPolicy {
  return policy !== undefined && (policy.classes.length > 0 || policy.patterns.length > 0);
}

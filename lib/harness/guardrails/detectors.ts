/**
 * Deterministic content detectors: personal data (`no_pii`), credentials (`no_secrets`) and
 * instruction-like text (`no_injection`, the quarantine detector). Each finding names its kind and
 * the exact span it matched, so the value alone can be redacted and replay can highlight it.
 * Shapes that look right are confirmed where a checksum exists (Luhn for cards, mod-97 for IBANs).
 */
import { INJECTION_LINE } from '../model/fake/vocabulary';
import { GUARDRAIL_FINDING_CONTEXT_CHARS, QUARANTINE_MARKER } from '../tunables';
import type { DetectorName } from './config';

export interface Finding {
  detector: DetectorName;
  /** `email`, `phone`, `card`, `iban`, `aws_access_key`, `api_key`, `github_token`, `jwt`, `private_key`, `injection`, … */
  kind: string;
  /** The matched span, as [start, end) UTF-16 offsets into the text scanned. */
  start: number;
  end: number;
  value: string;
}

interface Pattern {
  kind: string;
  re: RegExp;
  /** Confirms a candidate (checksums, plausibility); absent: every match counts. */
  accept?: (value: string) => boolean;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

/** The Luhn checksum of a card number's digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN (spaces ignored). */
export function ibanValid(raw: string): boolean {
  const iban = raw.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const n = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of n) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function plausiblePhone(value: string): boolean {
  const digits = digitsOf(value);
  if (digits.length < 9 || digits.length > 15 || ISO_DATE.test(value)) return false;
  if (value.startsWith('+')) return true;
  // Without a country code: a national number written with a trunk 0 or in groups / brackets.
  return digits.startsWith('0') || /[\s().-]/.test(value);
}

const PII: Pattern[] = [
  { kind: 'email', re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  { kind: 'card', re: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, accept: (v) => luhnValid(digitsOf(v)) },
  { kind: 'iban', re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, accept: ibanValid },
  { kind: 'phone', re: /(?<![\w+-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,5}(?:[ .-]?\d{2,5}){1,4}(?![\w-])/g, accept: plausiblePhone },
];

const SECRETS: Pattern[] = [
  { kind: 'private_key', re: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g },
  { kind: 'aws_access_key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'api_key', re: /\bsk-(?:[A-Za-z]+-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'github_token', re: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  { kind: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer_token', re: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/g },
];

function scanPatterns(text: string, detector: DetectorName, patterns: readonly Pattern[]): Finding[] {
  const found: Finding[] = [];
  for (const p of patterns) {
    for (const m of text.matchAll(p.re)) {
      const value = m[0];
      if (p.accept && !p.accept(value)) continue;
      const start = m.index;
      found.push({ detector, kind: p.kind, start, end: start + value.length, value });
    }
  }
  return found;
}

/** Instruction-like paragraphs (the quarantine detector's rule: a paragraph with an instruction-like line). */
function scanInjection(text: string): Finding[] {
  const found: Finding[] = [];
  const breaks = /\n\s*\n/g;
  let from = 0;
  const paragraphs: [number, number][] = [];
  for (const m of text.matchAll(breaks)) {
    paragraphs.push([from, m.index]);
    from = m.index + m[0].length;
  }
  paragraphs.push([from, text.length]);
  for (const [start, end] of paragraphs) {
    const value = text.slice(start, end);
    if (INJECTION_LINE.test(value)) found.push({ detector: 'no_injection', kind: 'injection', start, end, value });
  }
  return found;
}

/** Drops findings inside an earlier, longer one (a card number is not also a phone number). */
function withoutOverlaps(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Finding[] = [];
  for (const f of sorted) {
    const last = kept[kept.length - 1];
    if (last && f.start < last.end) continue;
    kept.push(f);
  }
  return kept;
}

/** Findings of the given detectors in `text`, in order, no two overlapping. */
export function scanText(text: string, detectors: readonly DetectorName[]): Finding[] {
  const all: Finding[] = [];
  // Secrets first: a token that happens to contain an e-mail-like or digit run is reported as the secret.
  if (detectors.includes('no_secrets')) all.push(...scanPatterns(text, 'no_secrets', SECRETS));
  if (detectors.includes('no_pii')) all.push(...scanPatterns(text, 'no_pii', PII));
  if (detectors.includes('no_injection')) all.push(...scanInjection(text));
  return withoutOverlaps(all);
}

/** What replaces a redacted value: exactly the value goes, its kind stays readable. */
export function redactionOf(f: Pick<Finding, 'detector' | 'kind'>): string {
  return f.detector === 'no_injection' ? QUARANTINE_MARKER : `[REDACTED:${f.kind}]`;
}

/** `text` with exactly the findings' spans replaced (findings from `scanText` on this text). */
export function redactText(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const f of [...findings].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, f.start) + redactionOf(f);
    at = f.end;
  }
  return out + text.slice(at);
}

/** A value shown in a record without revealing it: first and last character kept, the rest masked. */
export function maskValue(f: Pick<Finding, 'detector' | 'value'>): string {
  if (f.detector === 'no_injection') return f.value;
  const v = f.value;
  if (v.length <= 4) return '•'.repeat(v.length);
  return v[0] + '•'.repeat(Math.min(v.length - 2, 24)) + v[v.length - 1];
}

/** A finding as a run records it: kind, span, and the text around it (the value itself masked unless injection). */
export interface FindingRecord {
  detector: DetectorName;
  kind: string;
  start: number;
  end: number;
  before: string;
  match: string;
  after: string;
}

export function findingRecord(text: string, f: Finding, redactContext: (s: string) => string = (s) => s): FindingRecord {
  const n = GUARDRAIL_FINDING_CONTEXT_CHARS;
  return {
    detector: f.detector,
    kind: f.kind,
    start: f.start,
    end: f.end,
    before: redactContext(text.slice(Math.max(0, f.start - n), f.start)),
    match: maskValue(f),
    after: redactContext(text.slice(f.end, f.end + n)),
  };
}

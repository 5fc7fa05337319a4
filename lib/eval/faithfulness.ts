/**
 * The fake faithfulness check (SPEC.md §12.6): the answer is split into claims, and a claim is
 * supported when every key fact in it appears in what the executed tools returned.
 */
import type { FloatKeys } from '../harness';
import { pyJson } from '../harness';
import { pyLen, pySlice, pyStrip } from '../harness';
import type { ToolRecord } from '../harness';
import { extractKeyFacts, normalize } from './facts';
import { round4 } from './numbers';
import { PY_SPACE } from './py-regex';

/** Characters of each tool result kept in the judge's context. */
export const CONTEXT_RESULT_CHARS = 1500;
/** Faithfulness passes at or above this share of supported claims. */
export const FAITHFULNESS_PASS_SCORE = 0.8;

/**
 * The judge's view of what the tools returned: one line per executed call,
 * `{name}({args JSON}) -> {first 1500 characters of the result JSON}` (Python-JSON, ASCII-escaped).
 */
export function contextFromRun(
  records: readonly Pick<ToolRecord, 'name' | 'arguments' | 'resultContent' | 'executed'>[],
  floatKeys?: FloatKeys,
): string {
  return records
    .filter((r) => r.executed)
    .map((r) => `${r.name}(${pyJson(r.arguments)}) -> ${pySlice(pyJson(r.resultContent, { floatKeys }), CONTEXT_RESULT_CHARS)}`)
    .join('\n');
}

const CLAIM_SPLIT = new RegExp(`(?<=[.;!?])${PY_SPACE}+|\\n+`, 'u');

/** The answer's claims: sentence-like parts longer than three characters. */
export function splitClaims(answer: string): string[] {
  return pyStrip(answer)
    .split(CLAIM_SPLIT)
    .map((part) => pyStrip(part))
    .filter((part) => pyLen(part) > 3);
}

export interface FaithfulnessResult {
  score: number;
  passed: boolean;
  claims: number;
  supported: number;
  /** Claims with a key fact that the context does not contain. */
  unsupportedClaims: string[];
}

/** Scores how much of an answer the tool output supports. */
export function gradeFaithfulness(answer: string, context: string): FaithfulnessResult {
  const ctx = normalize(context);
  const claims = splitClaims(answer);
  if (claims.length === 0) return { score: 1, passed: true, claims: 0, supported: 0, unsupportedClaims: [] };
  const unsupportedClaims = claims.filter((claim) => !extractKeyFacts(claim).every((fact) => ctx.includes(normalize(fact))));
  const supported = claims.length - unsupportedClaims.length;
  const score = round4(supported / claims.length);
  return { score, passed: score >= FAITHFULNESS_PASS_SCORE, claims: claims.length, supported, unsupportedClaims };
}

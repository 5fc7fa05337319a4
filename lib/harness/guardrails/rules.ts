/**
 * The finish-time rules, checked when the agent tries to answer: tools it had to use, texts its
 * answer must include, a citation of something it looked up, and no placeholders. Each returns
 * what is unmet in words the agent can act on; none throws.
 */
import { pyStr } from '../text';
import type { ToolRecord } from '../types';
import type { FinishRuleName, Guardrails } from './config';

export interface RuleResult {
  rule: FinishRuleName;
  met: boolean;
  /** Met: what was checked. Unmet: what is missing, addressed to the agent. */
  detail: string;
}

const succeeded = (records: readonly ToolRecord[]) => records.filter((r) => r.executed && !r.isError);

export function checkRequireTools(required: readonly string[], records: readonly ToolRecord[]): RuleResult {
  const used = new Set(succeeded(records).map((r) => r.name));
  const missing = required.filter((t) => !used.has(t));
  return missing.length === 0
    ? { rule: 'require_tools', met: true, detail: `used ${required.join(', ')}` }
    : { rule: 'require_tools', met: false, detail: `you have not used ${missing.join(', ')} successfully; look it up before answering` };
}

export function checkMustInclude(texts: readonly string[], answer: string): RuleResult {
  const lower = answer.toLowerCase();
  const missing = texts.filter((t) => !lower.includes(t.toLowerCase()));
  return missing.length === 0
    ? { rule: 'must_include', met: true, detail: `includes ${texts.map((t) => `"${t}"`).join(', ')}` }
    : { rule: 'must_include', met: false, detail: `your answer must include ${missing.map((t) => `"${t}"`).join(', ')}` };
}

/** Identifier-like tokens (a letter run and digits, `SKU-0042`, `doc_7`) and bracketed references (`[returns-policy]`). */
const CITATION_TOKEN = /\[([^\]\n]{1,80})\]|\b[A-Za-z]+[-_]?\d+[A-Za-z0-9-]*\b/g;

function resultText(r: ToolRecord): string {
  return typeof r.resultContent === 'string' ? r.resultContent : pyStr(r.resultContent);
}

/**
 * Met when the answer names something a successful tool result contains: an identifier (`SKU-0042`)
 * or a bracketed reference (`[returns-policy]`). Nothing looked up means nothing can be cited.
 */
export function checkCitation(answer: string, records: readonly ToolRecord[]): RuleResult {
  const sources = succeeded(records).map(resultText);
  if (sources.length === 0) {
    return { rule: 'require_citation', met: false, detail: 'cite a source: you have not looked anything up yet, so nothing can be cited' };
  }
  const haystack = sources.join('\n').toLowerCase();
  for (const m of answer.matchAll(CITATION_TOKEN)) {
    const token = (m[1] ?? m[0]).trim().toLowerCase();
    if (token.length >= 3 && haystack.includes(token)) return { rule: 'require_citation', met: true, detail: `cites ${m[0]}` };
  }
  return { rule: 'require_citation', met: false, detail: 'cite the source of your answer: name the id or [reference] of a tool result you used' };
}

const PLACEHOLDERS: RegExp[] = [
  /\b(?:TODO|TBD|FIXME)\b/,
  /\blorem ipsum\b/i,
  /\[(?:insert|your|placeholder|add|enter)\b[^\]\n]*\]/i,
  /<(?:insert|placeholder|your)\b[^>\n]*>/i,
  /\{\{[^}\n]*\}\}/,
  /\bX{3,}\b/,
];

export function checkPlaceholders(answer: string): RuleResult {
  for (const re of PLACEHOLDERS) {
    const m = re.exec(answer);
    if (m) return { rule: 'no_placeholders', met: false, detail: `your answer still has a placeholder ("${m[0]}"); replace it with the real value` };
  }
  return { rule: 'no_placeholders', met: true, detail: 'no placeholders' };
}

/** The finish rules a run's guardrails switch on, in order, checked against this answer. */
export function checkFinishRules(g: Guardrails, answer: string, records: readonly ToolRecord[]): RuleResult[] {
  const out: RuleResult[] = [];
  if (g.require_tools.length > 0) out.push(checkRequireTools(g.require_tools, records));
  if (g.must_include.length > 0) out.push(checkMustInclude(g.must_include, answer));
  if (g.require_citation) out.push(checkCitation(answer, records));
  if (g.no_placeholders) out.push(checkPlaceholders(answer));
  return out;
}

/**
 * Agent guardrails: what an agent must and must not do before its answer counts. Validated with zod
 * at construction (a bad value is refused naming its field, e.g. `guardrails.on_violation`), so a
 * run never starts with a half-understood rail. The parsed shape is what a run records it used.
 */
import { z } from 'zod';
import { ConfigError } from '../errors';
import { safeJsonParse } from '../json';
import { DEFAULT_GUARDRAIL_MAX_RETRIES, MAX_GUARDRAIL_RETRIES } from '../tunables';

export const DETECTOR_NAMES = ['no_pii', 'no_secrets', 'no_injection'] as const;
export type DetectorName = (typeof DETECTOR_NAMES)[number];

/** Finish-time rules, checked when the agent tries to answer (cheap and deterministic). */
export const FINISH_RULE_NAMES = ['require_tools', 'must_include', 'require_citation', 'no_placeholders'] as const;
export type FinishRuleName = (typeof FINISH_RULE_NAMES)[number];

/** Every guardrail a run can be held to, in the order they are checked (cheap first, the LLM guard last). */
export const GUARDRAIL_NAMES = ['forbid_tools', ...FINISH_RULE_NAMES, ...DETECTOR_NAMES, 'llm_guard'] as const;
export type GuardrailName = (typeof GUARDRAIL_NAMES)[number];

export const ON_VIOLATION = ['retry', 'fail', 'warn'] as const;
export type OnViolation = (typeof ON_VIOLATION)[number];

export const SEVERITIES = ['none', 'low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** `true` (detect only), `false` (off) or `{ redact }`; stored as `{ redact }` or absent. */
const detectorSetting = z
  .union([z.boolean(), z.strictObject({ redact: z.boolean().default(false) })])
  .transform((v) => (v === false ? undefined : v === true ? { redact: false } : v));

const toolName = z.string().trim().min(1, 'a tool name must not be empty');

export const LlmGuardSchema = z.strictObject({
  /** One sentence of policy the judge holds the answer to. */
  policy: z.string().trim().min(1, 'the LLM guard needs a policy sentence').describe('one sentence of policy the judge holds the answer to'),
  /** What a judge that does not answer in the verdict schema means: `block` (a violation) or `allow`. */
  on_error: z.enum(['block', 'allow']).default('block').describe('a judge that fails or answers outside the verdict schema: a violation (`block`) or delivered (`allow`)'),
  /** The lowest severity that counts as a violation. */
  block_at: z.enum(['low', 'medium', 'high']).default('medium').describe('the lowest severity that counts as a violation'),
});
export type LlmGuardConfig = z.infer<typeof LlmGuardSchema>;

export const GuardrailsSchema = z.strictObject({
  forbid_tools: z.array(toolName).default([]).describe('tools refused before they run'),
  require_tools: z.array(toolName).default([]).describe('tools the agent must have called before it finishes'),
  must_include: z.array(z.string().min(1, 'a must_include text must not be empty')).default([]).describe('texts the answer must contain'),
  require_citation: z.boolean().default(false).describe('the answer must name the id or [reference] of a tool result it used'),
  no_placeholders: z.boolean().default(false).describe('the answer must hold no placeholder text'),
  max_retries: z
    .number()
    .int()
    .min(0, `max_retries must be between 0 and ${MAX_GUARDRAIL_RETRIES}`)
    .max(MAX_GUARDRAIL_RETRIES, `max_retries must be between 0 and ${MAX_GUARDRAIL_RETRIES}`)
    .default(DEFAULT_GUARDRAIL_MAX_RETRIES)
    .describe('extra turns to meet the guardrails under `retry`'),
  on_violation: z.enum(ON_VIOLATION).default('retry').describe('an unmet guardrail: another turn, then GUARDRAIL (`retry`); GUARDRAIL at once (`fail`); delivered and recorded (`warn`)'),
  detectors: z
    .strictObject({ no_pii: detectorSetting.optional(), no_secrets: detectorSetting.optional(), no_injection: detectorSetting.optional() })
    .default({})
    .transform((d) => {
      const out: Partial<Record<DetectorName, { redact: boolean }>> = {};
      for (const name of DETECTOR_NAMES) if (d[name]) out[name] = d[name];
      return out;
    }),
  llm_guard: LlmGuardSchema.nullable().default(null).describe('a policy sentence judged by a model after the cheap checks pass'),
});
export type Guardrails = z.output<typeof GuardrailsSchema>;
export type GuardrailsInput = z.input<typeof GuardrailsSchema>;

/** The guardrails of a run that asked for none of them (checks nothing; the same as `null`). */
export function guardrailsOn(g: Guardrails | null | undefined): GuardrailName[] {
  if (!g) return [];
  const on: GuardrailName[] = [];
  if (g.forbid_tools.length > 0) on.push('forbid_tools');
  if (g.require_tools.length > 0) on.push('require_tools');
  if (g.must_include.length > 0) on.push('must_include');
  if (g.require_citation) on.push('require_citation');
  if (g.no_placeholders) on.push('no_placeholders');
  for (const d of DETECTOR_NAMES) if (g.detectors[d]) on.push(d);
  if (g.llm_guard) on.push('llm_guard');
  return on;
}

function fieldOf(path: readonly PropertyKey[]): string {
  return ['guardrails', ...path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))].join('.').replace(/\.\[/g, '[');
}

/** Validates guardrails given as an object; throws ConfigError whose key names the field (`guardrails.max_retries`). */
export function parseGuardrails(value: unknown): Guardrails {
  const parsed = GuardrailsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
    const field = fieldOf(path);
    const message = issue.code === 'unrecognized_keys' ? `unknown guardrail setting` : issue.message;
    throw new ConfigError(field, `${field}: ${message}`);
  }
  return parsed.data;
}

/** Validates guardrails given as JSON text (a flag, an environment variable, a form field). */
export function parseGuardrailsJson(text: string): Guardrails {
  const json = safeJsonParse(text);
  if (!json.ok) throw new ConfigError('guardrails', `guardrails: not valid JSON (${json.error})`);
  return parseGuardrails(json.value);
}

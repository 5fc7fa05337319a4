/**
 * What an admin sends to define a tenant's online evaluators and alert rules (issue 37), and the shape
 * they are stored in. Each refusal names its field.
 */
import { z } from 'zod';
import { DETECTOR_NAMES } from '../harness';
import { EVALUATOR_KINDS, TagFilterSchema, type EvaluatorConfig, type EvaluatorFilter } from '../eval';

export { EVALUATOR_KINDS };

const optionalText = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .optional()
    .transform((s) => (s && s.trim() !== '' ? s.trim() : undefined));

const optionalNumber = (min: number, max: number, message: string) =>
  z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return undefined;
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });

export const EvaluatorInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'enter a name')
      .max(60, 'at most 60 characters')
      .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, - and _, starting with a letter or digit'),
    kind: z.enum(EVALUATOR_KINDS, 'choose a kind'),
    enabled: z.boolean().default(true),
    max: optionalNumber(0, 1e9, 'a number of 0 or more'),
    detectors: z.array(z.enum(DETECTOR_NAMES)).max(DETECTOR_NAMES.length).optional(),
    judge: optionalText(200),
    sampleRate: optionalNumber(0, 1, 'a share from 0 to 1'),
    dailyCapUsd: optionalNumber(0, 1e6, 'USD of 0 or more'),
    source: z
      .enum(['', 'harness', 'imported'])
      .optional()
      .transform((s) => (s === '' ? undefined : s)),
    modelId: optionalText(256),
    agent: optionalText(256),
    sessionId: optionalText(256),
    /** A tag the runs carry (its stored form; a bad one is refused naming it). */
    tag: TagFilterSchema,
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'guardrail' && (v.detectors ?? []).length === 0) ctx.addIssue({ code: 'custom', path: ['detectors'], message: 'choose at least one detector' });
    if (v.kind === 'judge' && !v.judge) ctx.addIssue({ code: 'custom', path: ['judge'], message: "enter 'fake' or provider:model" });
    if (v.kind !== 'judge' && (v.sampleRate !== undefined || v.dailyCapUsd !== undefined)) {
      ctx.addIssue({ code: 'custom', path: [v.sampleRate !== undefined ? 'sampleRate' : 'dailyCapUsd'], message: 'only a judge samples and spends' });
    }
  });
export type EvaluatorInput = z.output<typeof EvaluatorInputSchema>;

/** The stored form of an input: its options and its filter. */
export function evaluatorParts(input: EvaluatorInput): { config: EvaluatorConfig; filter: EvaluatorFilter } {
  const config: EvaluatorConfig = {};
  if (input.max !== undefined && (input.kind === 'cost' || input.kind === 'latency')) config.max = input.max;
  if (input.kind === 'guardrail') config.detectors = [...new Set(input.detectors ?? [])];
  if (input.kind === 'judge') {
    config.judge = input.judge;
    config.sampleRate = input.sampleRate ?? 1;
    if (input.dailyCapUsd !== undefined) config.dailyCapUsd = input.dailyCapUsd;
  }
  const filter: EvaluatorFilter = {};
  if (input.source) filter.source = input.source;
  if (input.modelId) filter.modelId = input.modelId;
  if (input.agent) filter.agent = input.agent;
  if (input.sessionId) filter.sessionId = input.sessionId;
  if (input.tag) filter.tag = input.tag;
  return { config, filter };
}

const IdSchema = z.string().trim().min(1).max(80).regex(/^[A-Za-z0-9_-]+$/, 'not an id');
export const EvaluatorIdSchema = z.object({ evaluatorId: IdSchema });

/** A time from the backfill form: a `datetime-local` value read as UTC, or an ISO time. */
const UtcTime = (what: string) =>
  z
    .string()
    .trim()
    .max(40)
    .transform((v, ctx) => {
      const at = new Date(/(Z|[+-]\d\d:?\d\d)$/.test(v) ? v : `${v}Z`);
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) || Number.isNaN(at.getTime())) {
        ctx.addIssue({ code: 'custom', message: `enter the ${what} as a date and time (UTC)` });
        return z.NEVER;
      }
      return at;
    });

/** A backfill of one of the tenant's evaluators over the runs that started in [from, to) (issue 37). */
export const BackfillInputSchema = z
  .object({ evaluatorId: IdSchema, from: UtcTime('start'), to: UtcTime('end') })
  .superRefine((v, ctx) => {
    if (v.from.getTime() >= v.to.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: 'the window must end after it starts' });
  });

export const BackfillIdSchema = z.object({ backfillId: IdSchema });

/** Alert rule kinds: MODEL_ERROR share in an hour, a mean score's drop against the week before, cost per day. */
export const ALERT_KINDS = ['error_share', 'score_drop', 'daily_cost'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const AlertRuleInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'enter a name')
      .max(60, 'at most 60 characters')
      .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, - and _, starting with a letter or digit'),
    kind: z.enum(ALERT_KINDS, 'choose a kind'),
    threshold: z.union([z.number(), z.string()]).transform((v, ctx) => {
      const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
      if (!Number.isFinite(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: 'a number of 0 or more' });
        return z.NEVER;
      }
      return n;
    }),
    evaluator: optionalText(60),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'error_share' && v.threshold > 1) ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'a share from 0 to 1 (0.05 is 5%)' });
    if (v.kind === 'score_drop' && v.threshold > 1) ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'a drop of the mean score, from 0 to 1' });
    if (v.kind === 'score_drop' && !v.evaluator) ctx.addIssue({ code: 'custom', path: ['evaluator'], message: 'name the evaluator whose mean score to watch' });
  });
export type AlertRuleInput = z.output<typeof AlertRuleInputSchema>;
export const AlertRuleIdSchema = z.object({ ruleId: IdSchema });

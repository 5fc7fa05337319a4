/**
 * How a run is configured from the UI: dataset, weakness flags, run guards, payload wrappers and
 * tool transport. Every list is checked against the harness's own names.
 */
import { z } from 'zod';
import { FAKE_MODEL, NOISY_FAKE_MODEL, MODEL_PROVIDERS, PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, TRANSPORTS, WEAKNESS_FLAGS } from '../harness';
import { ConfigError } from '../harness';
import { parseGuardrails, parseGuardrailsJson, type Guardrails } from '../harness';
import { DatasetIdSchema } from './datasets';
import { storableText } from './text';
import { GoldenSetNameSchema, MAX_EPOCHS, RunTagsSchema } from '../eval';

const sortedUnique = <T extends string>(xs: T[]): T[] => [...new Set(xs)].sort();

/**
 * A model id after `provider:` (e.g. `gpt-4o-mini`, `anthropic.claude-3-haiku-20240307-v1:0`,
 * `llama3.1:8b`, `meta-llama/Llama-3-8B`); never anything URL-like (`//`).
 */
const MODEL_ID = /^(?!.*\/\/)[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;

/**
 * The model a run uses, as the picker sends it: `fake`, `fake-noisy` (the seeded noisy fake model), or
 * a provider and a model id. Only names come
 * from the browser: credentials and the openai-compatible endpoint are the server's own
 * (lib/runs/model-choice.ts refuses a provider the server holds no credentials for).
 */
export const ModelChoiceSchema = z
  .string()
  .trim()
  .max(200)
  .default(FAKE_MODEL)
  .superRefine((v, ctx) => {
    if (v === FAKE_MODEL || v === NOISY_FAKE_MODEL) return;
    const colon = v.indexOf(':');
    const provider = colon === -1 ? v : v.slice(0, colon);
    if (!(MODEL_PROVIDERS as readonly string[]).includes(provider)) {
      ctx.addIssue({ code: 'custom', message: `a model is 'fake', '${NOISY_FAKE_MODEL}' or <provider>:<model id> with provider one of ${MODEL_PROVIDERS.join(', ')}` });
    } else if (!MODEL_ID.test(v.slice(colon + 1))) {
      ctx.addIssue({ code: 'custom', message: 'not a model id (letters, digits and . _ : / @ + -, at most 128)' });
    }
  });
export type ModelChoice = z.output<typeof ModelChoiceSchema>;

/** Longest guardrails JSON accepted from the UI. */
export const MAX_GUARDRAILS_CHARS = 8000;

/**
 * The run's guardrails: an object, or JSON text from the run form's field (empty: none of its own, the
 * tenant's default applies). Refused with the harness's message, which names the field.
 */
export const GuardrailsFieldSchema = z.unknown().transform((v, ctx): Guardrails | undefined => {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
  if (typeof v === 'string' && v.length > MAX_GUARDRAILS_CHARS) {
    ctx.addIssue({ code: 'custom', message: `guardrails are at most ${MAX_GUARDRAILS_CHARS} characters of JSON` });
    return z.NEVER;
  }
  try {
    return typeof v === 'string' ? parseGuardrailsJson(v) : parseGuardrails(v);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    ctx.addIssue({ code: 'custom', message: err.message });
    return z.NEVER;
  }
});

/** A seed for the noisy fake model, as the form sends it (empty: none, the default stream). */
const SeedSchema = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ message: 'a seed is a whole number' }).int('a seed is a whole number').min(0, 'a seed is at least 0').max(2 ** 32 - 1, 'a seed is below 2^32').optional(),
).optional();

/** Runs per case of a suite or matrix (issue 35), as the form sends it: each case runs this many times from a fresh reset (absent: one). */
export const EpochsSchema = z.preprocess(
  (v) => (v === '' || v === null ? 1 : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ message: `epochs is a whole number from 1 to ${MAX_EPOCHS}` }).int(`epochs is a whole number from 1 to ${MAX_EPOCHS}`).min(1, `epochs is a whole number from 1 to ${MAX_EPOCHS}`).max(MAX_EPOCHS, `epochs is a whole number from 1 to ${MAX_EPOCHS}`),
).optional();

/** The seed applies to the noisy fake model only: refused on `seed` for any other. */
function seedNeedsNoisy(v: { model: string; seed?: number | undefined }, ctx: z.RefinementCtx): void {
  if (v.seed !== undefined && v.model !== NOISY_FAKE_MODEL) ctx.addIssue({ code: 'custom', path: ['seed'], message: `a seed applies to the noisy fake model (${NOISY_FAKE_MODEL}) only` });
}

export const RunSettingsSchema = z.object({
  datasetId: DatasetIdSchema,
  weaknesses: z.array(z.enum(WEAKNESS_FLAGS)).max(WEAKNESS_FLAGS.length).default([]).transform(sortedUnique),
  guards: z.array(z.enum(RUN_GUARD_NAMES)).max(RUN_GUARD_NAMES.length).default([]).transform(sortedUnique),
  payloadWrappers: z.array(z.enum(PAYLOAD_WRAPPER_NAMES)).max(PAYLOAD_WRAPPER_NAMES.length).default([]).transform(sortedUnique),
  transport: z.enum(TRANSPORTS).default('local'),
  model: ModelChoiceSchema,
  /** A tool server by id from config/mcp-servers.json; only the id comes from the browser, never a command or URL. */
  toolServer: z
    .string()
    .max(40)
    .regex(/^([a-z0-9][a-z0-9-]*)?$/, 'not a tool server id')
    .optional()
    .transform((v) => (v ? v : undefined)),
  guardrails: GuardrailsFieldSchema.optional(),
  /** The noisy fake model's seed (the same seed, the same runs); fake-noisy only. */
  seed: SeedSchema,
});
export type RunSettings = z.output<typeof RunSettingsSchema>;
export type RunSettingsInput = z.input<typeof RunSettingsSchema>;

/** Longest free-text query accepted from the UI. */
export const MAX_QUERY_CHARS = 2000;

export const CaseIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'not a case id');

/** One run: a golden case (by id) or a free-text query, never both. */
export const RunOneInputSchema = RunSettingsSchema.extend({
  caseId: CaseIdSchema.optional(),
  query: storableText(z.string().trim().max(MAX_QUERY_CHARS, `a query is at most ${MAX_QUERY_CHARS} characters`)).optional(),
  /** Tags the run is stored with (a list, or one comma-separated text; lib/eval/run-tags.ts), for filters and trends. */
  tags: RunTagsSchema,
}).superRefine((v, ctx) => {
  seedNeedsNoisy(v, ctx);
  const hasCase = v.caseId !== undefined && v.caseId !== '';
  const hasQuery = v.query !== undefined && v.query !== '';
  if (hasCase === hasQuery)
    ctx.addIssue({ code: 'custom', path: [hasCase ? 'query' : 'caseId'], message: 'give either a golden case or a query, not both' });
});
export type RunOneInput = z.output<typeof RunOneInputSchema>;

/** The golden suite under one setting. */
/** A stored golden set of the caller's tenant to run instead of the dataset's bundled file (its newest version). */
const GoldenSetChoiceSchema = z.preprocess((v) => (v === '' || v === null ? undefined : v), GoldenSetNameSchema.optional());

export const RunSuiteInputSchema = RunSettingsSchema.extend({ goldenSet: GoldenSetChoiceSchema, epochs: EpochsSchema }).superRefine(seedNeedsNoisy);
export type RunSuiteInput = z.output<typeof RunSuiteInputSchema>;

/** The weakness matrix: every setting's flags are the matrix's own, so only the rest is chosen. */
export const RunMatrixInputSchema = RunSettingsSchema.omit({ weaknesses: true }).extend({ goldenSet: GoldenSetChoiceSchema, epochs: EpochsSchema }).superRefine(seedNeedsNoisy);
export type RunMatrixInput = z.output<typeof RunMatrixInputSchema>;

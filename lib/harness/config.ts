/**
 * Harness configuration: defaults from tunables, overridden by environment and flags, validated with
 * zod before anything runs. A bad value is refused with a message naming it and its allowed range.
 */
import { z } from 'zod';
import { ConfigError } from './errors';
import { GuardrailsSchema, parseGuardrailsJson } from './guardrails/config';
import * as T from './tunables';
import { FAKE_MODEL, MODEL_PROVIDERS, type ModelProvider, NOISY_FAKE_MODEL, PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, TRANSPORTS, WEAKNESS_FLAGS, type WeaknessFlag } from './names';

export {
  FAKE_MODEL,
  MODEL_PROVIDERS,
  type ModelProvider,
  NOISY_FAKE_MODEL,
  PAYLOAD_WRAPPER_NAMES,
  type PayloadWrapperName,
  RUN_GUARD_NAMES,
  type RunGuardName,
  TRANSPORTS,
  type Transport,
  WEAKNESS_FLAGS,
  type WeaknessFlag,
} from './names';

/** Whether a model name is one of the offline fake models (no provider, no credentials, no cost). */
export function isOfflineModel(model: string): boolean {
  return model === FAKE_MODEL || model === NOISY_FAKE_MODEL;
}

/** Splits `provider:model`; null for the fake model. Throws ConfigError naming `STOCKROOM_MODEL` when malformed. */
export function parseModelName(raw: string): { provider: ModelProvider; model: string } | null {
  const value = raw.trim();
  if (value === FAKE_MODEL) return null;
  const colon = value.indexOf(':');
  const provider = colon === -1 ? value : value.slice(0, colon);
  const model = colon === -1 ? '' : value.slice(colon + 1).trim();
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError(
      'STOCKROOM_MODEL',
      `STOCKROOM_MODEL must be 'fake' or one of ${MODEL_PROVIDERS.map((p) => `${p}:<model>`).join(', ')}; got '${raw}'`,
    );
  }
  if (model === '') throw new ConfigError('STOCKROOM_MODEL', `STOCKROOM_MODEL '${raw}' names no model after '${provider}:'`);
  return { provider: provider as ModelProvider, model };
}

export const HarnessConfigSchema = z
  .object({
    mode: z.enum(['mock', 'live']).describe('mock: the fake models only; live: a provider\'s model (unset: from the model)'),
    /** `fake` (the deterministic model) or `<provider>:<model id>`. */
    model: z.string().min(1).describe('`fake`, `fake-noisy` or `<provider>:<model id>`'),
    /** Base URL for `openai-compatible` (required) or an endpoint override for the others. */
    modelBaseUrl: z.url({ protocol: /^https?$/, error: 'STOCKROOM_MODEL_BASE_URL must be an http(s) URL' }).nullable().describe('the endpoint of an openai-compatible model (required for one), or an override for the others'),
    maxSteps: z.number().int().min(1, 'MAX_STEPS must be >= 1').describe('model calls per run; also the invalid-call stop threshold'),
    maxTokens: z.number().int().min(1, 'MAX_TOKENS must be >= 1').describe('output tokens per call; also what the budget reserves for the next answer'),
    tokenBudget: z.number().int().min(1).describe('tokens per run (input and output), the next call included'),
    /** Per-run spending ceiling in USD (needs a priced model); null: no cost budget. */
    usdBudget: z.number().positive('STOCKROOM_USD_BUDGET must be > 0').nullable().describe('USD per run (a priced model); stops before a call that could exceed it'),
    wallClockTimeoutS: z.number().positive('WALL_CLOCK_TIMEOUT_S must be > 0').describe('seconds a run may take; a deadline that aborts whatever is in flight'),
    /** A live model call's per-attempt timeout, seconds. */
    modelTimeoutS: z
      .number()
      .min(T.MODEL_CALL_TIMEOUT_RANGE_S.min, `MODEL_CALL_TIMEOUT_S must be between ${T.MODEL_CALL_TIMEOUT_RANGE_S.min} and ${T.MODEL_CALL_TIMEOUT_RANGE_S.max}`)
      .max(T.MODEL_CALL_TIMEOUT_RANGE_S.max, `MODEL_CALL_TIMEOUT_S must be between ${T.MODEL_CALL_TIMEOUT_RANGE_S.min} and ${T.MODEL_CALL_TIMEOUT_RANGE_S.max}`)
      .describe('seconds one live model call attempt may take'),
    /** Retries of a failed live model call after its first attempt. */
    modelRetries: z
      .number()
      .int('MODEL_CALL_RETRIES must be an integer')
      .min(0, `MODEL_CALL_RETRIES must be between 0 and ${T.MAX_MODEL_CALL_RETRIES}`)
      .max(T.MAX_MODEL_CALL_RETRIES, `MODEL_CALL_RETRIES must be between 0 and ${T.MAX_MODEL_CALL_RETRIES}`)
      .describe('retries of a failed live model call (throttling, timeouts, 5xx)'),
    /** Live models: stream each answer (the record is the same; time to first token is measured). Absent: off. */
    stream: z.boolean().optional().describe('live models: stream each answer (the record is the same; time to first token is measured)'),
    repeatCallWindow: z.number().int().min(2, 'REPEAT_CALL_WINDOW must be >= 2').describe('the third identical request inside this window stops the run (REPEATED_CALL)'),
    compactionTokenThreshold: z.number().int().min(1).describe('context tokens above which older tool results are summarised'),
    compactionKeepTurns: z.number().int().min(1, 'COMPACTION_KEEP_TURNS must be >= 1').describe('messages at the tail compaction never touches'),
    weaknesses: z.array(z.enum(WEAKNESS_FLAGS)).describe('the weakness flags switched on'),
    guards: z.array(z.enum(RUN_GUARD_NAMES)).describe('extra run guards'),
    payloadWrappers: z.array(z.enum(PAYLOAD_WRAPPER_NAMES)).describe('wrappers around tool results'),
    transport: z.enum(TRANSPORTS).describe('how the agent reaches the Stockroom tools'),
    /** What the agent must and must not do before its answer counts; absent: no guardrails. */
    guardrails: GuardrailsSchema.optional().describe('what the agent must and must not do before its answer counts'),
    /** How much the noisy fake model strays (0 = exactly the fake model); fake-noisy only. */
    temperature: z
      .number()
      .min(T.NOISY_TEMPERATURE_RANGE.min, `STOCKROOM_TEMPERATURE must be between ${T.NOISY_TEMPERATURE_RANGE.min} and ${T.NOISY_TEMPERATURE_RANGE.max}`)
      .max(T.NOISY_TEMPERATURE_RANGE.max, `STOCKROOM_TEMPERATURE must be between ${T.NOISY_TEMPERATURE_RANGE.min} and ${T.NOISY_TEMPERATURE_RANGE.max}`)
      .optional()
      .describe('how much fake-noisy strays from the fake model (0: not at all)'),
    /** The noisy fake model's seed: the same seed, the same runs; fake-noisy only. */
    seed: z.number().int('STOCKROOM_SEED must be an integer').min(0, 'STOCKROOM_SEED must be >= 0').max(2 ** 32 - 1, 'STOCKROOM_SEED must be < 2^32').optional().describe("fake-noisy's seed: the same seed, the same runs"),
  })
  .refine((c) => c.tokenBudget >= c.maxTokens, { message: 'TOKEN_BUDGET must be >= MAX_TOKENS', path: ['tokenBudget'] })
  .refine((c) => (c.temperature === undefined && c.seed === undefined) || c.model === NOISY_FAKE_MODEL, {
    message: `STOCKROOM_TEMPERATURE and STOCKROOM_SEED apply to the noisy fake model only (--model ${NOISY_FAKE_MODEL})`,
    path: ['temperature'],
  })
  .refine((c) => c.mode === 'mock' || !isOfflineModel(c.model), {
    message: "STOCKROOM_MODE=live needs a live model: set --model or STOCKROOM_MODEL (e.g. openai:gpt-4o-mini); the fake model is mock mode",
    path: ['mode'],
  })
  .refine((c) => c.mode === 'live' || isOfflineModel(c.model), {
    message: 'STOCKROOM_MODE=mock runs the fake models only; a live model needs STOCKROOM_MODE=live or no mode at all',
    path: ['mode'],
  })
  .refine((c) => !c.model.startsWith('openai-compatible:') || c.modelBaseUrl !== null, {
    message: 'openai-compatible models need --model-base-url or STOCKROOM_MODEL_BASE_URL (e.g. http://127.0.0.1:8000/v1)',
    path: ['modelBaseUrl'],
  });
export type HarnessConfig = z.infer<typeof HarnessConfigSchema>;

export const DEFAULT_CONFIG: HarnessConfig = {
  mode: 'mock',
  model: FAKE_MODEL,
  modelBaseUrl: null,
  maxSteps: T.DEFAULT_MAX_STEPS,
  maxTokens: T.DEFAULT_MAX_TOKENS,
  tokenBudget: T.DEFAULT_TOKEN_BUDGET,
  usdBudget: null,
  wallClockTimeoutS: T.DEFAULT_WALL_CLOCK_TIMEOUT_S,
  modelTimeoutS: T.DEFAULT_MODEL_CALL_TIMEOUT_S,
  modelRetries: T.DEFAULT_MODEL_CALL_RETRIES,
  repeatCallWindow: T.DEFAULT_REPEAT_CALL_WINDOW,
  compactionTokenThreshold: T.DEFAULT_COMPACTION_TOKEN_THRESHOLD,
  compactionKeepTurns: T.DEFAULT_COMPACTION_KEEP_TURNS,
  weaknesses: [],
  guards: [],
  payloadWrappers: [],
  transport: 'local',
};

/** Environment variable → config key, for the values SPEC.md §2.1 reads from the environment. */
export const ENV_KEYS = {
  STOCKROOM_MODE: 'mode',
  STOCKROOM_MODEL: 'model',
  STOCKROOM_MODEL_BASE_URL: 'modelBaseUrl',
  MAX_STEPS: 'maxSteps',
  MAX_TOKENS: 'maxTokens',
  TOKEN_BUDGET: 'tokenBudget',
  STOCKROOM_USD_BUDGET: 'usdBudget',
  WALL_CLOCK_TIMEOUT_S: 'wallClockTimeoutS',
  MODEL_CALL_TIMEOUT_S: 'modelTimeoutS',
  MODEL_CALL_RETRIES: 'modelRetries',
  STOCKROOM_STREAM: 'stream',
  REPEAT_CALL_WINDOW: 'repeatCallWindow',
  COMPACTION_TOKEN_THRESHOLD: 'compactionTokenThreshold',
  COMPACTION_KEEP_TURNS: 'compactionKeepTurns',
  STOCKROOM_WEAKNESSES: 'weaknesses',
  STOCKROOM_GUARDS: 'guards',
  STOCKROOM_PAYLOAD_WRAPPERS: 'payloadWrappers',
  STOCKROOM_TOOL_TRANSPORT: 'transport',
  STOCKROOM_GUARDRAILS: 'guardrails',
  STOCKROOM_TEMPERATURE: 'temperature',
  STOCKROOM_SEED: 'seed',
} as const satisfies Record<string, keyof HarnessConfig>;

const KEY_TO_ENV = Object.fromEntries(Object.entries(ENV_KEYS).map(([env, key]) => [key, env])) as Record<
  keyof HarnessConfig,
  string
>;

/** Parses a comma-separated list against an allowed set, with the reference harness's message. */
export function parseNameList<T extends string>(raw: string, allowed: readonly T[], what: string): T[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = [...new Set(items.filter((i) => !(allowed as readonly string[]).includes(i)))].sort();
  if (unknown.length > 0) {
    const list = (xs: readonly string[]) => '[' + xs.map((x) => `'${x}'`).join(', ') + ']';
    throw new ConfigError(what, `Unknown ${what}(s) ${list(unknown)}; valid flags: ${list([...allowed].sort())}`);
  }
  return [...new Set(items)].sort() as T[];
}

/** Parses weakness flags (`STOCKROOM_WEAKNESSES` / `--weaknesses`). */
export function parseWeaknesses(raw: string): WeaknessFlag[] {
  return parseNameList(raw, WEAKNESS_FLAGS, 'weakness flag');
}

function parseInteger(env: string, raw: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) throw new ConfigError(env, `${env} must be an integer, got '${raw}'`);
  return Number(raw);
}

function parseFloatValue(env: string, raw: string): number {
  const n = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(n)) throw new ConfigError(env, `${env} must be a number, got '${raw}'`);
  return n;
}

/** Raw string overrides (from the environment or CLI flags) turned into typed config fields. */
export function parseOverrides(raw: Partial<Record<keyof HarnessConfig, string | undefined>>): Partial<HarnessConfig> {
  const out: Partial<HarnessConfig> = {};
  for (const [key, value] of Object.entries(raw) as [keyof HarnessConfig, string | undefined][]) {
    if (value === undefined || value.trim() === '') continue; // empty counts as unset
    const env = KEY_TO_ENV[key];
    switch (key) {
      case 'mode': {
        const mode = value.trim().toLowerCase();
        if (mode !== 'mock' && mode !== 'live') throw new ConfigError(env, `${env} must be one of mock, live; got '${value}'`);
        out.mode = mode;
        break;
      }
      case 'model':
        if (value.trim() !== NOISY_FAKE_MODEL) parseModelName(value);
        out.model = value.trim();
        break;
      case 'modelBaseUrl':
        out.modelBaseUrl = value.trim();
        break;
      case 'weaknesses':
        out.weaknesses = parseWeaknesses(value);
        break;
      case 'guards':
        out.guards = parseNameList(value, RUN_GUARD_NAMES, 'run guard');
        break;
      case 'payloadWrappers':
        out.payloadWrappers = parseNameList(value, PAYLOAD_WRAPPER_NAMES, 'payload wrapper');
        break;
      case 'transport': {
        const t = value.trim();
        if (!(TRANSPORTS as readonly string[]).includes(t))
          throw new ConfigError(env, `${env} must be one of ${TRANSPORTS.join(', ')}; got '${value}'`);
        out.transport = t as HarnessConfig['transport'];
        break;
      }
      case 'guardrails':
        out.guardrails = parseGuardrailsJson(value);
        break;
      case 'wallClockTimeoutS':
        out.wallClockTimeoutS = parseFloatValue(env, value);
        break;
      case 'modelTimeoutS':
        out.modelTimeoutS = parseFloatValue(env, value);
        break;
      case 'usdBudget':
        out.usdBudget = parseFloatValue(env, value);
        break;
      case 'temperature':
        out.temperature = parseFloatValue(env, value);
        break;
      case 'stream': {
        const v = value.trim().toLowerCase();
        if (!['0', '1', 'true', 'false'].includes(v)) throw new ConfigError(env, `${env} must be one of 0, 1, true, false; got '${value}'`);
        out.stream = v === '1' || v === 'true';
        break;
      }
      default:
        (out as Record<string, number>)[key] = parseInteger(env, value);
    }
  }
  return out;
}

/** Reads the overrides from an environment object (process.env by default). */
export function configFromEnv(env: Record<string, string | undefined> = process.env): Partial<HarnessConfig> {
  const raw: Partial<Record<keyof HarnessConfig, string>> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const v = env[name];
    if (v !== undefined) raw[key] = v;
  }
  return parseOverrides(raw);
}

/** Builds and validates a configuration; throws ConfigError naming the first bad value. */
export function resolveConfig(...layers: Partial<HarnessConfig>[]): HarnessConfig {
  const merged: HarnessConfig = Object.assign({}, DEFAULT_CONFIG, ...layers);
  // A live model implies live mode unless a layer set the mode itself (then the schema checks they agree).
  if (!isOfflineModel(merged.model) && !layers.some((l) => l.mode !== undefined)) merged.mode = 'live';
  const parsed = HarnessConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? 'config') as keyof HarnessConfig;
    const env = KEY_TO_ENV[key] ?? key;
    const msg = issue.message.includes(env) ? issue.message : `${env}: ${issue.message}`;
    throw new ConfigError(env, msg);
  }
  return parsed.data;
}

export function hasWeakness(config: Pick<HarnessConfig, 'weaknesses'>, flag: WeaknessFlag): boolean {
  return config.weaknesses.includes(flag);
}

/**
 * The harness's fixed names (weakness flags, run guards, payload wrappers, transports, providers, the fake
 * models) with no schema beside them: a client bundle that needs a name list loads this and not zod
 * (./config.ts validates with zod and re-exports these; the replay page's bundle carried zod for them).
 */
export const WEAKNESS_FLAGS = ['ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded'] as const;
export type WeaknessFlag = (typeof WEAKNESS_FLAGS)[number];

/**
 * Run guards a run may add. `repeated_call` keeps the loop's repeated-call guard on even under a setting
 * that turns it off (naive_retry), so the environment's part of that flag can be seen alone.
 */
export const RUN_GUARD_NAMES = ['grounded_write', 'repeated_call'] as const;
export type RunGuardName = (typeof RUN_GUARD_NAMES)[number];

export const PAYLOAD_WRAPPER_NAMES = ['cap_payload'] as const;
export type PayloadWrapperName = (typeof PAYLOAD_WRAPPER_NAMES)[number];

export const TRANSPORTS = ['local', 'mcp-memory', 'mcp-stdio', 'mcp-http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** Model providers a run may name as `<provider>:<model id>`; `fake` alone is the deterministic model. */
export const MODEL_PROVIDERS = ['bedrock', 'openai', 'openai-compatible', 'anthropic'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
export const FAKE_MODEL = 'fake';
/** The seeded stochastic variant of the fake model: samples among plausible tool choices and answers (mock mode). */
export const NOISY_FAKE_MODEL = 'fake-noisy';

/** The loop's states, in the order a run meets them (./types.ts holds their schema). */
export const HARNESS_STATES = ['PLAN', 'CALL_MODEL', 'EXECUTE_TOOLS', 'OBSERVE', 'DONE', 'FAILED'] as const;

/**
 * Every tunable of the harness, with the reference harness's defaults (SPEC.md §2.1). Configuration
 * starts from these and is validated before any model call, tool call or write.
 */

/** Max model calls per run; also the invalid-call stop threshold. */
export const DEFAULT_MAX_STEPS = 8;
/** Per-run token ceiling (input + output), including the next call's reserved output. */
export const DEFAULT_TOKEN_BUDGET = 20_000;
/** Per-call output cap; also the output reserved by the budget guard. */
export const DEFAULT_MAX_TOKENS = 1024;
/** Wall-clock limit of one run, in seconds. */
export const DEFAULT_WALL_CLOCK_TIMEOUT_S = 60;
/** One model call attempt's deadline, seconds (live models; the run's wall-clock limit still bounds the whole call). */
export const DEFAULT_MODEL_CALL_TIMEOUT_S = 60;
/** Allowed per-attempt timeouts, seconds. */
export const MODEL_CALL_TIMEOUT_RANGE_S = { min: 0.1, max: 600 } as const;
/** Retries of a failed model call after its first attempt (throttling, timeouts, server errors). */
export const DEFAULT_MODEL_CALL_RETRIES = 3;
/** The most retries a run may ask for. */
export const MAX_MODEL_CALL_RETRIES = 10;
/** The third identical request inside this window stops the run. */
export const DEFAULT_REPEAT_CALL_WINDOW = 3;
/** Context estimate (tokens) above which older tool results are summarised. */
export const DEFAULT_COMPACTION_TOKEN_THRESHOLD = 6000;
/** Messages at the tail that compaction never touches. */
export const DEFAULT_COMPACTION_KEEP_TURNS = 4;
/** Tool results at or below this many Python-JSON characters are never compacted. */
export const COMPACTION_MIN_RESULT_CHARS = 400;
/** Characters of a compacted result kept in its summary. */
export const COMPACTION_SUMMARY_HEAD_CHARS = 160;
/** Validation errors reported per invalid call. */
export const MAX_VALIDATION_ERRORS_REPORTED = 3;
/** Characters per token in the deterministic token estimate. */
export const CHARS_PER_TOKEN = 4;
/** The quarantine marker that replaces an instruction-like paragraph. */
export const QUARANTINE_MARKER = '[quarantined by harness: instruction-like content removed]';
/** Extra turns a run gets, by default, to meet its guardrails after it first tries to finish. */
export const DEFAULT_GUARDRAIL_MAX_RETRIES = 2;
/** The most guardrail retries a run may be configured with (each costs a model call). */
export const MAX_GUARDRAIL_RETRIES = 10;
/** Characters of context kept on each side of a guardrail finding (for replay's highlight). */
export const GUARDRAIL_FINDING_CONTEXT_CHARS = 40;

/** The noisy fake model's temperature range (0: exactly the fake model). */
export const NOISY_TEMPERATURE_RANGE = { min: 0, max: 2 } as const;
/** Its temperature when none is given. */
export const DEFAULT_NOISY_TEMPERATURE = 0.7;
/** Chance per model call, per unit of temperature, that the noisy fake model strays from the fake model's turn. */
export const NOISY_STRAY_PER_TEMPERATURE = 0.2;

/** Progress notifications kept on a tool call's record (the last ones; a chatty tool keeps a bounded record). */
export const MAX_STORED_TOOL_PROGRESS = 20;

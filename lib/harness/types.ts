/**
 * The harness's typed values: states, transitions, termination reasons, Converse-shaped messages,
 * trajectory records and the RunResult. Persisted shapes are zod schemas so a stored run can be
 * parsed back, replayed and resumed.
 *
 * A run is a tree of agents (issue 31). `RunResult.agents` lists every agent invocation of the run,
 * root first; each names its parent (an index into the same list), its path of names from the root
 * (`["planner", "inventory-checker"]`), how it was entered (the root; a handoff; called as a tool;
 * delegated to), a parallel-branch marker shared by siblings that overlapped, its own transitions
 * (none after its own DONE or FAILED), a rollup and its recorded times. Every trajectory step may
 * carry `agent` (an index into `agents`; absent = 0, the root) and the span it was recorded from
 * (`spanId`, `parentSpanId`). The trajectory stays one list in run order, so paging and replay by
 * index work as before. A run without `agents` (every run the Stockroom harness makes, and runs
 * stored before agents were) is one agent named `stockroom` whose transitions are the run's:
 * read agents only through `agentsOf(run)` (lib/harness/agents.ts), never `run.agents` directly.
 * `run.transitions` is the root agent's. A model turn also keeps its provider as sent (`provider`)
 * beside the normalised id (`providerId`), its model, and, when it was priced on its own (imported
 * traces), its cost (`costUsd` null = unknown, with `costNote` naming what had no price).
 */
import { z } from 'zod';
import { GuardrailsSchema } from './guardrails/config';
import type { JsonObject, JsonValue } from './json';
import { HARNESS_STATES } from './names';

export { HARNESS_STATES };
export const HarnessStateSchema = z.enum(HARNESS_STATES);
export type HarnessState = z.infer<typeof HarnessStateSchema>;

export const TERMINATION_REASONS = [
  'COMPLETED',
  'MAX_STEPS',
  'TOKEN_BUDGET',
  'REPEATED_CALL',
  'TIMEOUT',
  'MODEL_ERROR',
  'TOOL_ERROR',
  'INVALID_TOOL_CALLS',
  'COST_BUDGET',
  'DIVERGED',
  'OUTPUT_TRUNCATED',
  'MODEL_REFUSED',
  'CONTENT_FILTERED',
  'GUARDRAIL',
  'USAGE_UNKNOWN',
  'EMPTY_ANSWER',
] as const;
export const TerminationReasonSchema = z.enum(TERMINATION_REASONS);
export type TerminationReason = z.infer<typeof TerminationReasonSchema>;

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);
export const JsonValueSchema = jsonValue;

// ---------------------------------------------------------------------------------------------
// Converse-shaped messages (key order matters: it is serialised for token counts)

export type TextBlock = { text: string };
export type ToolUseBlock = { toolUse: { toolUseId: string; name: string; input: JsonValue } };
export type ToolResultContentPart = { json: JsonValue } | { text: string };
export type ToolResultBlock = {
  toolResult: {
    toolUseId: string;
    content: ToolResultContentPart[];
    status: 'success' | 'error';
    /** Private marker set by compaction; stripped before any model sees the messages. */
    _compacted?: true;
  };
};
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;
export type Message = { role: 'user' | 'assistant'; content: ContentBlock[] };

/** A tool as the model is shown it: `{"toolSpec": {"name", "description", "inputSchema": {"json"}}}`. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

/** A tool call the model asked for. */
export interface ToolCallRequest {
  toolUseId: string;
  name: string;
  arguments: JsonValue;
}

/**
 * Why the model stopped, mapped from each provider's own value: a finished turn, a turn that asks for
 * tools, an answer cut at the output-token limit, a refusal, or an answer withheld by a content filter
 * or guardrail. The last three never complete a run (OUTPUT_TRUNCATED, MODEL_REFUSED, CONTENT_FILTERED).
 */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'content_filter';

export interface ModelResponse {
  text: string | null;
  toolCalls: ToolCallRequest[];
  stopReason: StopReason;
  /** Tokens as the provider reported them; null when its answer carried no usage (unknown, never 0). */
  inputTokens: number | null;
  outputTokens: number | null;
  latencyMs: number;
  /**
   * A streamed call: ms from sending the request to the first piece of output, as measured; null or
   * absent when the call was not streamed or nothing arrived (never reconstructed).
   */
  timeToFirstTokenMs?: number | null;
  modelId: string;
  /**
   * The model the provider says answered (`model` in its body, e.g. a dated snapshot of the alias
   * asked for); absent when it named none. Stored as the turn's `model`, exported as gen_ai.response.model.
   */
  responseModel?: string;
  /** The provider that answered (`fake`, `openai`, `anthropic`, `bedrock`, `openai-compatible`). */
  provider?: string;
  /** The provider's own stop/finish reason, before mapping to `stopReason`. */
  finishReason?: string;
  /** Input tokens the provider served from its prompt cache (a subset of `inputTokens`). */
  cachedTokens?: number;
  /** Input tokens the provider wrote to its prompt cache (a subset of `inputTokens`, billed at the cache-write rate). */
  cacheWriteTokens?: number;
  /**
   * The provider's response body exactly as it arrived (parsed JSON), with secret-looking values
   * redacted; recorded beside the mapped response (RunResult.exchanges).
   */
  raw?: JsonValue;
  /** Set by a recording client: the digest of the request this answers (see RunResult.exchanges). */
  exchange?: { requestDigest: string };
  /** Set by a replaying client that continued live after the recorded run and this one parted. */
  diverged?: { detail: string };
}

// ---------------------------------------------------------------------------------------------
// Trajectory

/**
 * When something in a run happened: its wall-clock start and end (ISO-8601) and the same as offsets in
 * ms from the run's start on a monotonic clock (a resumed run's offsets count the approval wait too).
 * Absent on runs recorded before times were (unknown, never rebuilt from latencies).
 */
export const CallTimeSchema = z.object({
  startedAt: z.string(),
  endedAt: z.string(),
  startMs: z.number(),
  endMs: z.number(),
});
export type CallTime = z.infer<typeof CallTimeSchema>;

/**
 * Where a step sits in the run's tree: the agent that made it (an index into `RunResult.agents`;
 * absent: 0, the root agent) and the span it was recorded from (imported traces; our own export).
 */
const stepTree = {
  agent: z.number().int().nonnegative().optional(),
  spanId: z.string().optional(),
  parentSpanId: z.string().nullable().optional(),
};
export const StepTreeSchema = z.object(stepTree);
export type StepTree = z.infer<typeof StepTreeSchema>;

export const ModelTurnSchema = z.object({
  ...stepTree,
  kind: z.literal('model_turn'),
  step: z.number().int(),
  text: z.string().nullable(),
  toolCalls: z.array(z.object({ toolUseId: z.string(), name: z.string(), arguments: jsonValue })),
  stopReason: z.string(),
  /** As the provider reported them; null: not reported (unknown, never 0). */
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  /** A call whose usage was not reported: the local count a budget used instead (never shown as reported). */
  usageEstimate: z.lazy(() => UsageEstimateSchema).optional(),
  latencyMs: z.number(),
  /** A streamed call's measured time to its first token, ms; absent: not streamed (unknown). */
  timeToFirstTokenMs: z.number().optional(),
  contextTokensEstimate: z.number().int(),
  /** Live models: who answered (as the producer spelled it), their raw finish reason, and the prompt tokens served from cache. */
  provider: z.string().optional(),
  /**
   * The provider normalised to one id (`openai`, `anthropic`, `bedrock`, `google`, `mistral`, `groq`,
   * `xai`, `deepseek`, `cohere`, `ollama`, `azure`, …; lib/otel/import/providers.ts); absent: same as `provider`.
   */
  providerId: z.string().optional(),
  /** The model that answered this call (imported traces, where calls of one run may use different models). */
  model: z.string().optional(),
  /**
   * This call's cost when it was priced on its own (imported traces): null = unknown (no price),
   * never 0. Absent: priced from the run's model as a whole (harness runs).
   */
  costUsd: z.number().nullable().optional(),
  /** With `costUsd`: the price used, or the model that had none. */
  costNote: z.string().optional(),
  finishReason: z.string().optional(),
  cachedTokens: z.number().int().optional(),
  /** Prompt tokens written to the provider's cache on this call (Anthropic, Bedrock). */
  cacheWriteTokens: z.number().int().optional(),
  /** When the call was made and answered (retries and their waits included). */
  time: CallTimeSchema.optional(),
});
export type ModelTurn = z.infer<typeof ModelTurnSchema>;

/** A tool result's prompt-injection finding (which detector, an excerpt of the planted text): the run is tainted from there. */
export const TaintSchema = z.object({ detector: z.enum(['quarantine', 'no_injection']), excerpt: z.string() });
export type Taint = z.infer<typeof TaintSchema>;

/** One progress notification a tool sent while it ran (MCP notifications/progress). */
export const ToolProgressSchema = z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() });

export const ToolRecordSchema = z.object({
  ...stepTree,
  kind: z.literal('tool_call'),
  step: z.number().int(),
  toolUseId: z.string(),
  name: z.string(),
  arguments: jsonValue,
  /** `{name}:{sorted-key Python-JSON of arguments}` */
  signature: z.string(),
  resultContent: jsonValue,
  isError: z.boolean(),
  errorCode: z.string().nullable(),
  validationError: z.string().nullable(),
  blockedBy: z.string().nullable(),
  executed: z.boolean(),
  payloadChars: z.number().int(),
  latencyMs: z.number(),
  sanitized: z.boolean(),
  quarantinedLines: z.number().int(),
  /** The paragraphs quarantine removed, kept for inspection (never sent to the model). */
  quarantinedText: z.array(z.string()),
  /** Names of payload wrappers that rewrote the result after the tool ran. */
  rewrittenBy: z.array(z.string()),
  /**
   * The result carried prompt-injection signals (the quarantine detector's, or a guardrail's
   * no_injection finding), seen whether or not the text was removed: from this record on the run is
   * tainted, and a call policy may tighten what it allows. Absent: nothing was found.
   */
  taint: TaintSchema.optional(),
  /** The call policy's decision, when a policy is attached to the run (governance). */
  policy: z
    .object({
      decision: z.enum(['allow', 'deny', 'approval_required']),
      rule: z.string(),
      policyVersion: z.string(),
      /** How an approval request for this call was resolved, when one was needed. */
      resolution: z.enum(['approved', 'denied', 'expired', 'stale']).nullable(),
    })
    .nullable(),
  /**
   * The result's parts that are not text (an MCP server's images, audio, resource links, embedded
   * resources), whole; `resultContent` is what the model was given of them. Absent: none.
   */
  media: z.array(z.record(z.string(), jsonValue)).optional(),
  /**
   * The tool declared an outputSchema and its result broke it (wrong types, or no structured content):
   * what was wrong. The model was given a `output_schema_violation` error instead. Absent: none.
   */
  schemaViolation: z.string().optional(),
  /** The last progress notifications the tool sent while it ran, oldest first (bounded). Absent: none. */
  progress: z.array(ToolProgressSchema).optional(),
  /** When the call went through the harness's checks and the executor. */
  time: CallTimeSchema.optional(),
  /** A governed call that waited for a reviewer: from the pause to the resume. */
  approvalWait: CallTimeSchema.optional(),
});
export type ToolRecord = z.infer<typeof ToolRecordSchema>;

/** Why an executor opened a new session with its tool server (see ToolSessionEvent). */
export const SESSION_RENEWAL_REASONS = [
  /** The server no longer knew the session (HTTP 404 for its id: reaped while idle, or the server restarted). */
  'session_ended',
  /** The server had stopped answering and answered again, in a new session. */
  'connection_lost',
] as const;
export type SessionRenewalReason = (typeof SESSION_RENEWAL_REASONS)[number];

/**
 * The executor opened a new session with the tool server to answer a call (the server had ended the
 * old one, or the connection came back after it was lost): recorded just before that call's record.
 * Whatever the old session held on the server (a per-session environment) is not in the new one.
 */
export const ToolSessionEventSchema = z.object({
  ...stepTree,
  kind: z.literal('tool_session'),
  step: z.number().int(),
  /** The call it was opened for (its record follows), and that call's tool. */
  toolUseId: z.string(),
  name: z.string(),
  /** The tool server, as governance names it. */
  server: z.string(),
  reason: z.enum(SESSION_RENEWAL_REASONS),
  /** What happened and what was done again in the new session, in words. */
  detail: z.string(),
});
export type ToolSessionEvent = z.infer<typeof ToolSessionEventSchema>;

export const CompactionEventSchema = z.object({
  ...stepTree,
  kind: z.literal('compaction'),
  step: z.number().int(),
  tokensBefore: z.number().int(),
  tokensAfter: z.number().int(),
  resultsSummarised: z.number().int(),
});
export type CompactionEvent = z.infer<typeof CompactionEventSchema>;

export const GUARD_NAMES = [
  'wall_clock',
  'max_steps',
  'token_budget',
  'repeated_call',
  'invalid_calls',
  'usd_budget',
  'model',
  'run_guard',
] as const;

export const GuardEventSchema = z.object({
  ...stepTree,
  kind: z.literal('guard'),
  step: z.number().int(),
  /** `wall_clock`, `max_steps`, `token_budget`, `repeated_call`, `invalid_calls`, `model`, or a run guard's name. */
  guard: z.string(),
  reason: TerminationReasonSchema,
  detail: z.string(),
  /** For MODEL_ERROR: the typed reason the model call failed (`throttled`, `auth`, `timeout`, …). */
  errorKind: z.string().optional(),
  /** For MODEL_ERROR: the usage the provider reported on the answer it could not use (billed, so counted). */
  inputTokens: z.number().int().optional(),
  outputTokens: z.number().int().optional(),
  /** When the guard tripped (a MODEL_ERROR: the failed call, from its start to the failure). */
  time: CallTimeSchema.optional(),
});
export type GuardEvent = z.infer<typeof GuardEventSchema>;

/** A failed model-call attempt that the client retried (live models): why, and the wait before the next. */
export const ModelRetryEventSchema = z.object({
  ...stepTree,
  kind: z.literal('model_retry'),
  step: z.number().int(),
  /** The attempt that failed (1 = the first). */
  attempt: z.number().int(),
  /** A typed model-error reason: `throttled`, `timeout`, `server_error`, … */
  reason: z.string(),
  delayMs: z.number(),
  detail: z.string(),
  /** A streamed attempt: what had arrived before it failed (text bounded; `chars` counts all of it). */
  partial: z.object({ text: z.string(), chars: z.number().int(), events: z.number().int() }).optional(),
  /** The wait before the next attempt, as it happened (cut short when the run was cancelled or timed out). */
  time: CallTimeSchema.optional(),
});
export type ModelRetryEvent = z.infer<typeof ModelRetryEventSchema>;

export const GUARDRAIL_ACTIONS = [
  /** A forbidden tool call refused before it ran. */
  'refused',
  /** A finish-time rule or the LLM guard checked and met. */
  'passed',
  /** A finish-time rule, a detector on the answer or the LLM guard not met. */
  'violated',
  /** The agent was told what is missing and given another turn (`message` is what it was told). */
  'retry',
  /** The answer was delivered with its violations recorded (`on_violation: warn`). */
  'warned',
  /** The run ended on its violations (GUARDRAIL). */
  'failed',
  /** A detector found something in tool output entering the context (`redacted` says whether it was removed). */
  'finding',
  /** The LLM guard's judge did not answer in the verdict schema (or its call failed); `on_error` decided. */
  'judge_failed',
] as const;

export const GuardrailFindingSchema = z.object({
  detector: z.enum(['no_pii', 'no_secrets', 'no_injection']),
  kind: z.string(),
  /** The matched span [start, end) in the text that was checked. */
  start: z.number().int(),
  end: z.number().int(),
  /** Context around the match and the match itself, personal data and secrets masked. */
  before: z.string(),
  match: z.string(),
  after: z.string(),
});
export type GuardrailFinding = z.infer<typeof GuardrailFindingSchema>;

/** One guardrail check, retry, finding or outcome, where it happened in the run. */
export const GuardrailEventSchema = z.object({
  ...stepTree,
  kind: z.literal('guardrail'),
  step: z.number().int(),
  /** A guardrail name (`forbid_tools`, `require_tools`, `no_pii`, `llm_guard`, …) or `guardrails` for the outcome. */
  guardrail: z.string(),
  action: z.enum(GUARDRAIL_ACTIONS),
  detail: z.string(),
  /** Where: the final answer, a tool's output entering the context, or a tool call. */
  source: z.enum(['answer', 'tool_output', 'tool_call']).optional(),
  toolUseId: z.string().optional(),
  findings: z.array(GuardrailFindingSchema).optional(),
  /** Whether the findings' values were replaced in what the model (or the user) got. */
  redacted: z.boolean().optional(),
  /** `retry`: the words the agent was told. */
  message: z.string().optional(),
  /** `retry`: which retry this is (1 = the first). */
  attempt: z.number().int().optional(),
  /** The LLM guard's verdict. */
  verdict: z.object({ severity: z.enum(['none', 'low', 'medium', 'high']), reason: z.string() }).optional(),
  /** When the check ran (imported guardrail spans carry their times). */
  time: CallTimeSchema.optional(),
});
export type GuardrailEvent = z.infer<typeof GuardrailEventSchema>;
/**
 * A span of an imported trace that is neither a model call nor a tool call (a chain, retriever,
 * guardrail, embedding, or an application's own span): kept as a step of its own kind, with its
 * attributes, so nothing the trace recorded is dropped. Runs made here have none.
 */
export const SPAN_KINDS = [
  'chain',
  'retriever',
  'embedding',
  'reranker',
  'guardrail',
  'evaluator',
  'prompt',
  'create_agent',
  'agent',
  'task',
  'workflow',
  'custom',
] as const;

/** A document a retriever returned (or a reranker ranked), as the span recorded it. */
export const SpanDocumentSchema = z.object({
  id: z.string().nullable(),
  content: z.string().nullable(),
  score: z.number().nullable(),
  metadata: jsonValue.optional(),
});
export type SpanDocument = z.infer<typeof SpanDocumentSchema>;

export const SpanStepSchema = z.object({
  ...stepTree,
  kind: z.literal('span'),
  step: z.number().int(),
  /** The convention's own word (SPAN_KINDS: `retriever`, `chain`, `guardrail`, `embedding`, …) or `custom`. */
  spanKind: z.string(),
  name: z.string(),
  attributes: z.record(z.string(), jsonValue),
  latencyMs: z.number(),
  isError: z.boolean(),
  /** When the span ran, as the producer recorded it. */
  time: CallTimeSchema.optional(),
  /** Its input and output values (`input.value`/`output.value`, …), when it recorded them. */
  input: z.string().optional(),
  output: z.string().optional(),
  /** RETRIEVER: the documents it returned; RERANKER: the documents it ranked (`output`), with scores. */
  documents: z.array(SpanDocumentSchema).optional(),
  /** RERANKER: the documents it was given. */
  inputDocuments: z.array(SpanDocumentSchema).optional(),
});
export type SpanStep = z.infer<typeof SpanStepSchema>;

export const TrajectoryStepSchema = z.discriminatedUnion('kind', [
  GuardrailEventSchema,
  ModelTurnSchema,
  ToolRecordSchema,
  CompactionEventSchema,
  GuardEventSchema,
  ModelRetryEventSchema,
  SpanStepSchema,
  ToolSessionEventSchema,
]);
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

export const TransitionSchema = z.object({
  step: z.number().int(),
  from: HarnessStateSchema,
  to: HarnessStateSchema,
  reason: z.string(),
});
export type Transition = z.infer<typeof TransitionSchema>;

/** Who caused a provider call: the agent's own turn, the guardrails' LLM guard, or an answer judge. */
export const USAGE_PURPOSES = ['agent', 'guardrail', 'judge'] as const;
export type UsagePurpose = (typeof USAGE_PURPOSES)[number];

/** A local count of a call's tokens, made because the provider reported none; `by` names the tokenizer. */
export const UsageEstimateSchema = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int(), by: z.string() });
export type UsageEstimate = z.infer<typeof UsageEstimateSchema>;

/** One purpose's share of a run's provider calls (reported tokens only; `unreportedCalls` were not). */
export const PurposeUsageSchema = z.object({
  calls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  unreportedCalls: z.number().int(),
});
export type PurposeUsage = z.infer<typeof PurposeUsageSchema>;

/**
 * A run's usage. `modelCalls` and `perCall` are the agent's own model calls (one per model turn);
 * the token totals are every provider call the run caused (guardrail judges and answers the run
 * could not use included), as reported: a call that reported no usage adds nothing to them and is
 * counted in `unreportedCalls` instead, so with any unreported call the totals are a lower bound.
 */
export const UsageSchema = z.object({
  modelCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  totalTokens: z.number().int(),
  /** Prompt tokens the provider served from its cache (live models). */
  cachedTokens: z.number().int().optional(),
  /** Prompt tokens written to the provider's cache (live models that report it; part of inputTokens). */
  cacheWriteTokens: z.number().int().optional(),
  /** Provider calls whose answer carried no usage (absent: 0). Their tokens are unknown, never 0. */
  unreportedCalls: z.number().int().optional(),
  /** The local estimate of the unreported calls' tokens that budgets counted (never part of the totals). */
  estimatedTokens: UsageEstimateSchema.extend({ calls: z.number().int() }).optional(),
  /** The totals split by who caused the calls (absent: runs stored before the split; all the agent's). */
  byPurpose: z.partialRecord(z.enum(USAGE_PURPOSES), PurposeUsageSchema).optional(),
  perCall: z.array(
    z.object({
      /** Null: not reported. */
      inputTokens: z.number().int().nullable(),
      outputTokens: z.number().int().nullable(),
      cachedTokens: z.number().int().optional(),
      cacheWriteTokens: z.number().int().optional(),
    }),
  ),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * `known` is false when the model has no price: `usd` is then null (unknown, never 0, which would read
 * as free). Absent `known` means known. (Records stored before it was null may hold 0 with known false.)
 */
export const CostEstimateSchema = z.object({
  usd: z.number().nullable(),
  note: z.string(),
  known: z.boolean().optional(),
  /** Calls whose usage was not reported: `usd` then prices only the rest, a lower bound ("≥ $…"). Absent: 0. */
  unreportedCalls: z.number().int().optional(),
});
export type CostEstimate = z.infer<typeof CostEstimateSchema>;

/**
 * The messages exactly as one model call saw them (private keys stripped), so replay can show what
 * the model saw at that step. Stored per model call.
 */
export const ModelInputSchema = z.object({
  step: z.number().int(),
  messages: z.array(jsonValue),
});
export type ModelInput = z.infer<typeof ModelInputSchema>;

// ---------------------------------------------------------------------------------------------
// The tree of agents

/** How an agent came to run: the run's root; handed the conversation by another; called as a tool; delegated to. */
export const AGENT_ENTRIES = ['root', 'handoff', 'tool', 'delegate'] as const;
export type AgentEntry = (typeof AGENT_ENTRIES)[number];

/** How an agent ended: answered (DONE), failed (FAILED), handed the conversation on, or not known to have ended. */
export const AGENT_OUTCOMES = ['completed', 'failed', 'handed_off', 'unfinished'] as const;
export type AgentOutcome = (typeof AGENT_OUTCOMES)[number];

/** One agent's own figures (its sub-agents' not included; sum the subtree for those). */
export const AgentRollupSchema = z.object({
  modelCalls: z.number().int(),
  toolCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Null when any of its calls has no price (unknown, never 0). */
  costUsd: z.number().nullable(),
  costNote: z.string(),
  /** From its start to its end as recorded; null when its times were not recorded. */
  latencyMs: z.number().nullable(),
  outcome: z.enum(AGENT_OUTCOMES),
  /** Why: a termination reason, the error it failed with, or the agent it handed off to. */
  outcomeDetail: z.string(),
});
export type AgentRollup = z.infer<typeof AgentRollupSchema>;

export const AgentSchema = z.object({
  /** Unique in the run: the agent span's id (imported), or the agent's name for the harness's own agent. */
  id: z.string(),
  name: z.string(),
  /** The names from the root down to this agent: `["planner", "inventory-checker"]`. */
  path: z.array(z.string()).min(1),
  /** Index of the agent that called it or handed to it; null for the root. */
  parent: z.number().int().nonnegative().nullable(),
  entered: z.enum(AGENT_ENTRIES),
  /**
   * `tool`: the tool call it ran under (its toolUseId and span); `handoff`/`delegate`: the span of the
   * handoff or call, when one was recorded.
   */
  via: z.object({ toolUseId: z.string().optional(), spanId: z.string().optional(), step: z.number().int().optional() }).optional(),
  /** Siblings that ran at overlapping times share a marker (a parallel branch); null when it ran alone. */
  parallelGroup: z.string().nullable(),
  /** The producer's `gen_ai.agent.id`, OpenInference `graph.node.id`, … when given. */
  externalId: z.string().optional(),
  /** This agent's own state machine: PLAN → CALL_MODEL → … → DONE | FAILED, nothing after that. */
  transitions: z.array(TransitionSchema),
  rollup: AgentRollupSchema,
  /** When it started and ended, as recorded (offsets from the run's start). Absent: not recorded. */
  time: CallTimeSchema.optional(),
});
export type Agent = z.infer<typeof AgentSchema>;

/** Something of an imported trace that could not be kept as sent, and what became of it. */
export const SET_ASIDE_REASONS = ['cycle', 'missing_parent', 'duplicate_span', 'too_deep', 'name_too_long', 'invalid'] as const;
export const SetAsideSchema = z.object({
  spanId: z.string(),
  name: z.string(),
  reason: z.enum(SET_ASIDE_REASONS),
  /** What was done: `dropped` (not in the run) or `kept` (in the run, placed or trimmed as `detail` says). */
  action: z.enum(['dropped', 'kept']),
  detail: z.string(),
});
export type SetAside = z.infer<typeof SetAsideSchema>;

export const RunResultSchema = z.object({
  runId: z.string(),
  caseId: z.string().nullable(),
  query: z.string(),
  finalAnswer: z.string(),
  terminationReason: TerminationReasonSchema,
  trajectory: z.array(TrajectoryStepSchema),
  transitions: z.array(TransitionSchema),
  usage: UsageSchema,
  costEstimate: CostEstimateSchema,
  steps: z.number().int(),
  startedAt: z.string(),
  durationMs: z.number(),
  mode: z.enum(['mock', 'live']),
  modelId: z.string(),
  weaknesses: z.array(z.string()),
  /** The guardrails the run ran under (lib/harness/guardrails); absent: none. */
  guardrails: z.lazy(() => GuardrailsSchema).optional(),
  systemPrompt: z.string(),
  toolSpecs: z.array(z.object({ name: z.string(), description: z.string(), inputSchema: jsonValue })),
  modelInputs: z.array(ModelInputSchema),
  /** Live model calls as recorded: the request digest and the full (normalised) response, per model call. */
  exchanges: z.array(z.lazy(() => ExchangeSchema)).optional(),
  /**
   * `paused` when a call waits for approval; the checkpoint then holds everything needed to resume.
   * `running` only on the snapshots a live run reports after each step (HarnessOptions.onStep);
   * `queued` only on the record of a run waiting for a worker (never made by the loop).
   */
  status: z.enum(['finished', 'paused', 'running', 'queued']),
  checkpoint: z.lazy(() => CheckpointSchema).nullable(),
  /** The run's agents, root first (see the top of this file); absent: one agent, `stockroom`. Read with agentsOf. */
  agents: z.array(AgentSchema).optional(),
  /** Imported traces: spans set aside or repaired while building the tree (never silently). */
  setAside: z.array(SetAsideSchema).optional(),
});
export type RunResult = z.infer<typeof RunResultSchema>;

/** One recorded model call: its position among the run's model calls, the request digest, the response. */
export const ExchangeSchema = z.object({
  callIndex: z.number().int(),
  step: z.number().int(),
  requestDigest: z.string(),
  /** The mapped (Converse-shaped) response the loop used. */
  response: jsonValue,
  /** The provider's own response body, as it arrived (secrets redacted); absent for recordings made before it was kept. */
  raw: jsonValue.optional(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/**
 * A paused run, exactly as the loop left it in EXECUTE_TOOLS: resuming it continues as if the loop
 * had never stopped. `stateVersion` advances on every pause and resume (compare-and-set in storage).
 */
export const CheckpointSchema = z.object({
  version: z.literal(1),
  stateVersion: z.number().int(),
  step: z.number().int(),
  messages: z.array(jsonValue),
  /** The tool calls of the current step that have not run yet; the first one awaits approval. */
  pendingCalls: z.array(z.object({ toolUseId: z.string(), name: z.string(), arguments: jsonValue })),
  /** Result blocks already produced in this step, in order. */
  stepBlocks: z.array(jsonValue),
  /** How many records of this step are already in the trajectory. */
  stepRecords: z.number().int(),
  invalidCount: z.number().int(),
  /** Wall-clock time the run had used when it paused (waiting for a reviewer does not count). */
  elapsedMs: z.number(),
  /** When it paused: wall clock, and the offset on the run's timeline (earlier waits included). */
  pausedAt: z.string().optional(),
  offsetMs: z.number().optional(),
  awaiting: z.object({
    toolUseId: z.string(),
    name: z.string(),
    arguments: jsonValue,
    rule: z.string(),
    policyVersion: z.string(),
    message: z.string(),
  }),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** Narrowing helpers over a run's trajectory. */
export const isToolRecord = (s: TrajectoryStep): s is ToolRecord => s.kind === 'tool_call';
export const isModelTurn = (s: TrajectoryStep): s is ModelTurn => s.kind === 'model_turn';
export const isGuardEvent = (s: TrajectoryStep): s is GuardEvent => s.kind === 'guard';
export const isModelRetryEvent = (s: TrajectoryStep): s is ModelRetryEvent => s.kind === 'model_retry';
export const isToolSessionEvent = (s: TrajectoryStep): s is ToolSessionEvent => s.kind === 'tool_session';
export const isGuardrailEvent = (s: TrajectoryStep): s is GuardrailEvent => s.kind === 'guardrail';
export const isCompactionEvent = (s: TrajectoryStep): s is CompactionEvent => s.kind === 'compaction';

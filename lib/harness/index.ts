/**
 * The harness library: a state machine around a Converse-shaped model client, with guards that
 * return verdicts, validation of every tool call, compaction, quarantine, run guards, a call-policy
 * seam for approvals, and a deterministic fake model. It knows nothing of Next.js or storage.
 */
export { runHarness, resumeHarness } from './loop/run';
export { callTimesOf, timeAt, type RunTimes, type TimedEntry, type TimedKind } from './call-times';
export { MOCK_COST_NOTE } from './loop/run-cost';
export type { HarnessOptions, RunInput } from './loop/options';
export {
  DEFAULT_CONFIG,
  FAKE_MODEL,
  HarnessConfigSchema,
  NOISY_FAKE_MODEL,
  isOfflineModel,
  PAYLOAD_WRAPPER_NAMES,
  RUN_GUARD_NAMES,
  TRANSPORTS,
  WEAKNESS_FLAGS,
  configFromEnv,
  ENV_KEYS,
  parseOverrides,
  parseWeaknesses,
  resolveConfig,
  type HarnessConfig,
  type PayloadWrapperName,
  type RunGuardName,
  type Transport,
  type WeaknessFlag,
} from './config';
export { ConfigError, DatasetError, ExecutorError, HarnessError, ModelCallError } from './errors';
export type { PayloadWrapper, ToolCallContext, ToolExecutor, ToolProgress, ToolResult, ToolSessionRenewal } from './executor';
export type { ConverseRequest, ModelClient, ModelRetryNotice, StreamedPartial } from './model/client';
export { partialFromDetail, partialNote } from './model/partial';
export { FakeModelClient, FAKE_MODEL_ID } from './model/fake/fake-client';
export { NoisyFakeModelClient, NOISY_FAKE_MODEL_ID } from './model/fake/noisy-client';
export { hashSeed, seededRandom } from './random';
export { memoByText, TEXT_MEMO_ENTRIES } from './text-memo';
export { HeuristicPlanner } from './model/fake/planner';
export type { RunGuard, RunGuardContext, RunGuardVerdict } from './guards/run-guard';
export type { ApprovalResolution, CallPolicy, CallPolicyContext, PolicyDecision } from './guards/call-policy';
export { createGroundedWriteGuard } from './guards/grounded-write';
export { createPayloadCap, DEFAULT_PAYLOAD_CAP_CHARS } from './payload/cap-payload';
export {
  DETECTOR_NAMES,
  GUARDRAIL_NAMES,
  GuardrailsSchema,
  guardrailsOn,
  parseGuardrails,
  parseGuardrailsJson,
  type Guardrails,
  type GuardrailName,
  type GuardrailsInput,
  type DetectorName,
} from './guardrails/config';
export { scanText, redactText, type Finding } from './guardrails/detectors';
export { FakeGuardModel, FAKE_GUARD_MODEL_ID } from './guardrails/fake-guard';
export { systemClock, FakeClock, type Clock } from './clock';
export { pyJson, type FloatKeys } from './pyjson';
export { AGENT_PATH_SEPARATOR, DEFAULT_AGENT_NAME, agentIndexOf, agentLabel, agentsOf, childrenOf, subtreeRollup } from './agents';
export {
  AGENT_ENTRIES,
  AGENT_OUTCOMES,
  AgentSchema,
  CheckpointSchema,
  HARNESS_STATES,
  RunResultSchema,
  TERMINATION_REASONS,
  isCompactionEvent,
  isGuardEvent,
  isGuardrailEvent,
  isModelTurn,
  isToolRecord,
  type Agent,
  type AgentRollup,
  type Checkpoint,
  type GuardrailEvent,
  type HarnessState,
  type RunResult,
  type SetAside,
  type SpanStep,
  type TerminationReason,
  type ToolRecord,
  type TrajectoryStep,
  type Transition,
} from './types';

// Reached from other libraries.
export { MODEL_PROVIDERS, type ModelProvider, parseModelName } from './config';
export type { CostMeter, TokenCounts } from './cost';
export { ForwardingExecutor } from './executor';
export { guardrailSummary } from './guardrails/summary';
export { isJsonObject, jsonEqual, type JsonObject, type JsonValue, safeJsonParse } from './json';
export { callSignature } from './loop/execute-call';
export { quarantine } from './loop/quarantine';
export type { ScriptTurn } from './model/fake/fake-client';
export { buildProductVocabulary } from './model/fake/vocabulary';
export { compareCodePoints } from './pyjson';
export { contentTokens, pyLen, pyRepr, pySlice, pyStr, pyStrip, pyTypeName, tokenize } from './text';
export { CHARS_PER_TOKEN, DEFAULT_MAX_TOKENS, DEFAULT_NOISY_TEMPERATURE } from './tunables';
export { type AgentEntry, type CallTime, CallTimeSchema, type CompactionEvent, type ContentBlock, type Exchange, type GuardEvent, GuardrailEventSchema, JsonValueSchema, type Message, type ModelInput, type ModelResponse, type ModelRetryEvent, type ModelTurn, SetAsideSchema, type SpanDocument, SpanDocumentSchema, type StepTree, type StopReason, TerminationReasonSchema, type ToolCallRequest, type ToolResultContentPart, type ToolSpec } from './types';
export { estimateUsage, type TokenEstimator } from './token-estimator';
export { UsageEstimateSchema, UsageSchema, type Usage, type UsageEstimate } from './types';
export { TaintSchema, ToolProgressSchema, type Taint } from './types';
export { SESSION_RENEWAL_REASONS, type SessionRenewalReason, type ToolSessionEvent, ToolSessionEventSchema } from './types';

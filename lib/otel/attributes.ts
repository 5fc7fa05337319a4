/**
 * Attribute names the export writes and the import reads: the GenAI semantic conventions (from
 * `@opentelemetry/semantic-conventions/incubating`, the only place they exist) plus the project's
 * own `stockroom.*` names for what the conventions have no key for (termination, transitions,
 * guard verdicts), so a trace exported here comes back as the same run.
 */
export {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';

/** `gen_ai.system`: the name `gen_ai.provider.name` replaced; older emitters still send it. */
export const ATTR_GEN_AI_SYSTEM_OLD = 'gen_ai.system';

/** The project's own attributes (no GenAI key exists for these). */
export const STOCKROOM = {
  runId: 'stockroom.run.id',
  caseId: 'stockroom.case.id',
  query: 'stockroom.query',
  mode: 'stockroom.mode',
  status: 'stockroom.status',
  steps: 'stockroom.steps',
  weaknesses: 'stockroom.weaknesses',
  terminationReason: 'stockroom.termination_reason',
  datasetName: 'stockroom.dataset.name',
  step: 'stockroom.step',
  /** Position of the entry in the run's trajectory, so the import restores the exact order. */
  trajectoryIndex: 'stockroom.trajectory.index',
  stopReason: 'stockroom.stop_reason',
  contextTokens: 'stockroom.context_tokens_estimate',
  /** The model client's own provider name and raw finish reason (lib/models), when a live model answered. */
  provider: 'stockroom.provider',
  finishReason: 'stockroom.finish_reason',
  requestedToolNames: 'stockroom.requested_tools.names',
  requestedToolIds: 'stockroom.requested_tools.ids',
  toolExecuted: 'stockroom.tool.executed',
  toolIsError: 'stockroom.tool.is_error',
  toolErrorCode: 'stockroom.tool.error_code',
  toolBlockedBy: 'stockroom.tool.blocked_by',
  toolValidationError: 'stockroom.tool.validation_error',
  toolQuarantinedLines: 'stockroom.tool.quarantined_lines',
  toolSanitized: 'stockroom.tool.sanitized',
  toolPayloadChars: 'stockroom.tool.payload_chars',
  toolSignature: 'stockroom.tool.signature',
  /** On a step's span: the index of its agent in the run's agents (issue 31). */
  agent: 'stockroom.agent',
  /** On the root span of a run that lists its agents: the agents, whole, as JSON (issue 31). */
  agents: 'stockroom.agents',
  /** A model call priced on its own (an imported trace's, exported again): its provider id, model, cost and note. */
  providerId: 'stockroom.provider_id',
  model: 'stockroom.model',
  costUsd: 'stockroom.cost.usd',
  costNote: 'stockroom.cost.note',
} as const;

/** Span event names. */
export const EVENTS = {
  transition: 'stockroom.transition',
  guard: 'stockroom.guard',
  compaction: 'stockroom.compaction',
  approval: 'stockroom.approval',
  /** A guardrail check, retry, finding or outcome (issue 28); `stockroom.guardrail.event` holds it whole as JSON. */
  guardrail: 'stockroom.guardrail',
  /** A new session with a tool server that had ended the old one; `stockroom.tool_session.event` holds it whole as JSON. */
  toolSession: 'stockroom.tool_session',
} as const;

/** `error.type` of tool calls that did not run cleanly (the lecture's names). */
export const TOOL_ERROR_TYPES = {
  blocked: 'blocked_by_guard',
  invalid: 'invalid_arguments',
  quarantined: 'quarantined',
  failed: 'tool_error',
} as const;

/** OpenInference's attribute names (Arize Phoenix and the frameworks it instruments). */
export const OPENINFERENCE = {
  spanKind: 'openinference.span.kind',
  modelName: 'llm.model_name',
  provider: 'llm.provider',
  system: 'llm.system',
  promptTokens: 'llm.token_count.prompt',
  completionTokens: 'llm.token_count.completion',
  toolName: 'tool.name',
  toolParameters: 'tool.parameters',
  toolCallId: 'tool_call.id',
  inputValue: 'input.value',
  outputValue: 'output.value',
  outputMessagesPrefix: 'llm.output_messages.',
} as const;

/**
 * The Vercel AI SDK's telemetry attributes (`experimental_telemetry`). The SDK publishes no
 * constants for them, so they are named once here, as its telemetry documentation lists them.
 */
export const AI_SDK = {
  operationId: 'ai.operationId',
  toolCallOperation: 'ai.toolCall',
  prompt: 'ai.prompt',
  promptMessages: 'ai.prompt.messages',
  modelId: 'ai.model.id',
  modelProvider: 'ai.model.provider',
  responseText: 'ai.response.text',
  responseToolCalls: 'ai.response.toolCalls',
  responseFinishReason: 'ai.response.finishReason',
  responseModel: 'ai.response.model',
  inputTokens: 'ai.usage.inputTokens',
  outputTokens: 'ai.usage.outputTokens',
  /** AI SDK 4 and earlier. */
  promptTokens: 'ai.usage.promptTokens',
  completionTokens: 'ai.usage.completionTokens',
  cachedInputTokens: 'ai.usage.cachedInputTokens',
  cacheReadTokens: 'ai.usage.inputTokenDetails.cacheReadTokens',
  toolCallName: 'ai.toolCall.name',
  toolCallId: 'ai.toolCall.id',
  toolCallArgs: 'ai.toolCall.args',
  toolCallResult: 'ai.toolCall.result',
  metadataPrefix: 'ai.telemetry.metadata.',
  settingsPrefix: 'ai.settings.',
} as const;

/** AI SDK operations that are one provider call. */
export const AI_SDK_MODEL_OPERATIONS: ReadonlySet<string> = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream']);
/** AI SDK operations that are the whole call (the agent run's root). */
export const AI_SDK_ROOT_OPERATIONS: ReadonlySet<string> = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);

/** OpenLLMetry's token counts before it moved to `gen_ai.usage.*` (its conventions package no longer names them). */
export const OPENLLMETRY_LEGACY = {
  promptTokens: 'llm.usage.prompt_tokens',
  completionTokens: 'llm.usage.completion_tokens',
} as const;

/**
 * The deterministic fake model (mock mode, SPEC.md §9): replays the dataset's scripted turns for a
 * case when a script exists, otherwise asks the heuristic planner. Tokens are chars/4 of the exact
 * Python-JSON serialisation; latency is a formula; nothing is random.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../json';
import { pyJson, type FloatKeys } from '../../pyjson';
import { pyLen, pySlice } from '../../text';
import type { ModelResponse, ToolCallRequest } from '../../types';
import type { ConverseRequest, ModelClient } from '../client';
import { MessageSizer } from '../../loop/message-size';
import type { HeuristicPlanner, RawCall } from './planner';

export const FAKE_MODEL_ID = 'fake.stockroom-planner-v1';
/** The text of a scripted turn past the end of its script. */
export const SCRIPT_FALLBACK_TEXT = 'Done.';

export interface ScriptTurn {
  text?: string;
  tool_calls?: RawCall[];
}

export interface FakeModelOptions {
  planner: HeuristicPlanner;
  /** Scripted turns for this case, when the dataset has a mock script for it. */
  script?: readonly ScriptTurn[] | null;
  floatKeys?: FloatKeys;
}

/** Removes the private `_`-prefixed keys a script or planner may attach to a call's input. */
function publicArguments(input: JsonValue): JsonValue {
  if (!isJsonObject(input)) return input;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(input)) if (!k.startsWith('_')) out[k] = v;
  return out;
}

export class FakeModelClient implements ModelClient {
  readonly modelId = FAKE_MODEL_ID;
  private readonly sizer: MessageSizer;

  constructor(private readonly options: FakeModelOptions) {
    this.sizer = new MessageSizer(options.floatKeys);
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const promptChars =
      pyLen(request.system) + this.sizer.messagesChars(request.messages) + this.sizer.specsChars(request.tools);
    const inputTokens = Math.floor(promptChars / 4);

    let text: string | null;
    let rawCalls: RawCall[];
    const script = this.options.script;
    if (script) {
      const idx = request.messages.filter((m) => m.role === 'assistant').length;
      const turn: ScriptTurn = idx < script.length ? (script[idx] as ScriptTurn) : { text: SCRIPT_FALLBACK_TEXT };
      text = turn.text ?? null;
      rawCalls = turn.tool_calls ?? [];
    } else {
      const turn = this.options.planner.respond(request.system, request.messages, request.tools);
      text = turn.text;
      rawCalls = turn.calls;
    }

    // Ids continue from the calls already in the conversation, so a run resumed by a new client
    // (after a pause for approval) never reuses one.
    let next = request.messages.reduce((n, m) => n + m.content.filter((b) => 'toolUse' in b).length, 0);
    const toolCalls: ToolCallRequest[] = rawCalls.map((c) => ({
      toolUseId: 'tooluse_' + (next++).toString(16).padStart(12, '0'),
      name: c.name,
      arguments: publicArguments(c.input),
    }));

    const outputChars = pyLen(text ?? '') + toolCalls.reduce((n, c) => n + pyLen(pyJson(c.arguments)), 0);
    let outputTokens = Math.max(1, Math.floor(outputChars / 4));
    let stopReason: ModelResponse['stopReason'] = toolCalls.length > 0 ? 'tool_use' : 'end_turn';
    if (outputTokens > request.maxTokens) {
      text = pySlice(text ?? '', request.maxTokens * 4);
      stopReason = 'max_tokens';
      outputTokens = request.maxTokens;
    }
    const latencyMs = Math.round((20 + inputTokens / 50) * 100) / 100;
    return { text, toolCalls, stopReason, inputTokens, outputTokens, latencyMs, modelId: this.modelId };
  }
}

/**
 * A model call's messages as each convention writes them, read into one shape: GenAI parts
 * (`gen_ai.input.messages`, also what OpenLLMetry 0.2x writes), GenAI content events and log records
 * (`gen_ai.user.message`, `gen_ai.choice`, …), OpenInference's flattened `llm.input_messages.N.*`,
 * the AI SDK's `ai.prompt.messages`, OpenLLMetry's older flattened `gen_ai.prompt.N.*` /
 * `gen_ai.completion.N.*`, and OpenAI-shaped message lists (older GenAI content events).
 */
import { SemanticConventions as OI } from '@arizeai/openinference-semantic-conventions';
import {
  ATTR_GEN_AI_COMPLETION,
  ATTR_GEN_AI_PROMPT,
  EVENT_GEN_AI_ASSISTANT_MESSAGE,
  EVENT_GEN_AI_CHOICE,
  EVENT_GEN_AI_SYSTEM_MESSAGE,
  EVENT_GEN_AI_TOOL_MESSAGE,
  EVENT_GEN_AI_USER_MESSAGE,
} from '@opentelemetry/semantic-conventions/incubating';
import type { JsonValue } from '../../../harness';
import type { AttrMap, AttrValue, SpanEventRecord } from '../span-record';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface NormCall {
  toolUseId: string;
  name: string;
  arguments: JsonValue;
}

/** One message of a model call, whatever convention wrote it. */
export interface NormMessage {
  role: Role;
  text: string | null;
  toolCalls: NormCall[];
  /** For a tool message: the call it answers. */
  toolCallId: string | null;
  /** For an output message: its own finish reason, when the convention gives one. */
  finishReason?: string | null;
}

type Obj = { [key: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A JSON attribute (stringified JSON, or already structured); undefined when absent or unreadable. */
export function jsonAttr(v: AttrValue | undefined | unknown): JsonValue | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return v as JsonValue;
  try {
    return JSON.parse(v) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Arguments given as a JSON string or as structured JSON; a string that is not JSON is kept as text. */
const argsOf = (v: unknown): JsonValue => (typeof v === 'string' ? (jsonAttr(v) ?? v) : ((v ?? {}) as JsonValue));

function roleOf(v: unknown): Role | null {
  const r = str(v)?.toLowerCase();
  if (r === 'system' || r === 'developer') return 'system';
  if (r === 'user' || r === 'human') return 'user';
  if (r === 'assistant' || r === 'ai' || r === 'model') return 'assistant';
  if (r === 'tool' || r === 'function' || r === 'ipython') return 'tool';
  return null;
}

const joinText = (texts: string[]): string | null => (texts.length > 0 ? texts.join('\n') : null);

/** The text of a content value: a string, or a list of text parts (`{type:'text', text|content}`). */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return joinText(content.filter(isObj).filter((p) => p.type === undefined || p.type === 'text' || p.type === 'input_text' || p.type === 'output_text').map((p) => str(p.text) ?? str(p.content) ?? '').filter((t) => t !== ''));
}

/** OpenAI-shaped `tool_calls` (`{id, function: {name, arguments}}`) or flat `{id, name, arguments}`. */
function openAiCalls(v: unknown): NormCall[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((c) => {
    const fn = isObj(c.function) ? c.function : c;
    return { toolUseId: str(c.id) ?? '', name: str(fn.name) ?? '', arguments: argsOf(fn.arguments) };
  }).filter((c) => c.name !== '');
}

const LANGCHAIN_ROLES: Record<string, Role> = { HumanMessage: 'user', AIMessage: 'assistant', SystemMessage: 'system', ToolMessage: 'tool', FunctionMessage: 'tool' };

/** One message in any of the object shapes: GenAI parts, AI SDK content parts, or OpenAI's. */
function fromObject(m: Obj): NormMessage | null {
  if (m.lc !== undefined && m.type === 'constructor' && Array.isArray(m.id) && isObj(m.kwargs)) {
    // LangChain's serialised message: `{lc, type: 'constructor', id: [..., 'AIMessage'], kwargs}`.
    const cls = str(m.id[m.id.length - 1]) ?? '';
    const role = LANGCHAIN_ROLES[cls.replace(/(Chunk)?$/, '')];
    return role ? fromObject({ ...m.kwargs, role }) : null;
  }
  const role = roleOf(m.role);
  if (!role) return null;
  if (Array.isArray(m.parts)) {
    // GenAI: parts of type text / tool_call / tool_call_response.
    const parts = m.parts.filter(isObj);
    const response = parts.find((p) => p.type === 'tool_call_response');
    return {
      role,
      text: response ? (typeof response.response === 'string' ? response.response : JSON.stringify(response.response ?? null)) : joinText(parts.filter((p) => p.type === 'text').map((p) => str(p.content) ?? '')),
      toolCalls: parts.filter((p) => p.type === 'tool_call').map((p) => ({ toolUseId: str(p.id) ?? '', name: str(p.name) ?? '', arguments: argsOf(p.arguments) })),
      toolCallId: response ? str(response.id) : null,
      finishReason: str(m.finish_reason),
    };
  }
  if (Array.isArray(m.content) && m.content.some((p) => isObj(p) && (p.type === 'tool-call' || p.type === 'tool-result'))) {
    // AI SDK: content parts text / tool-call / tool-result.
    const parts = m.content.filter(isObj);
    const result = parts.find((p) => p.type === 'tool-result');
    const output = result ? (isObj(result.output) && 'value' in result.output ? result.output.value : (result.output ?? result.result)) : undefined;
    return {
      role,
      text: result ? (typeof output === 'string' ? output : JSON.stringify(output ?? null)) : contentText(parts),
      toolCalls: parts.filter((p) => p.type === 'tool-call').map((p) => ({ toolUseId: str(p.toolCallId) ?? '', name: str(p.toolName) ?? '', arguments: argsOf(p.input ?? p.args) })),
      toolCallId: result ? str(result.toolCallId) : null,
    };
  }
  return { role, text: contentText(m.content), toolCalls: openAiCalls(m.tool_calls), toolCallId: str(m.tool_call_id) ?? str(m.id) };
}

/** A JSON list of messages in any object shape (GenAI parts, AI SDK, OpenAI); null when it is not one. */
export function messageList(v: AttrValue | undefined | unknown): NormMessage[] | null {
  const parsed = jsonAttr(v);
  if (!Array.isArray(parsed)) return null;
  const out = parsed.filter(isObj).map((m) => fromObject(m as Obj)).filter((m): m is NormMessage => m !== null);
  return out.length > 0 ? out : null;
}

/** OpenInference's flattened messages under `llm.input_messages` / `llm.output_messages`. */
export function openInferenceMessages(a: AttrMap, prefix: string): NormMessage[] | null {
  const out: NormMessage[] = [];
  for (let i = 0; ; i++) {
    const p = `${prefix}.${i}.`;
    const role = roleOf(a[`${p}${OI.MESSAGE_ROLE}`]);
    if (role === null) break;
    let text = str(a[`${p}${OI.MESSAGE_CONTENT}`]);
    if (text === null) {
      const parts: string[] = [];
      for (let k = 0; ; k++) {
        const t = a[`${p}${OI.MESSAGE_CONTENTS}.${k}.${OI.MESSAGE_CONTENT_TEXT}`];
        const type = a[`${p}${OI.MESSAGE_CONTENTS}.${k}.${OI.MESSAGE_CONTENT_TYPE}`];
        if (t === undefined && type === undefined) break;
        if (typeof t === 'string') parts.push(t);
      }
      text = joinText(parts);
    }
    const toolCalls: NormCall[] = [];
    for (let k = 0; ; k++) {
      const c = `${p}${OI.MESSAGE_TOOL_CALLS}.${k}.`;
      const name = str(a[`${c}${OI.TOOL_CALL_FUNCTION_NAME}`]);
      if (name === null) break;
      toolCalls.push({ toolUseId: str(a[`${c}${OI.TOOL_CALL_ID}`]) ?? '', name, arguments: argsOf(a[`${c}${OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON}`]) });
    }
    out.push({ role, text, toolCalls, toolCallId: str(a[`${p}${OI.MESSAGE_TOOL_CALL_ID}`]) });
  }
  return out.length > 0 ? out : null;
}

/** OpenLLMetry's older flattened `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`. */
export function flattenedPromptMessages(a: AttrMap, prefix: typeof ATTR_GEN_AI_PROMPT | typeof ATTR_GEN_AI_COMPLETION): NormMessage[] | null {
  const out: NormMessage[] = [];
  for (let i = 0; ; i++) {
    const p = `${prefix}.${i}.`;
    const role = roleOf(a[`${p}role`]);
    if (role === null) break;
    const toolCalls: NormCall[] = [];
    for (let k = 0; ; k++) {
      const name = str(a[`${p}tool_calls.${k}.name`]);
      if (name === null) break;
      toolCalls.push({ toolUseId: str(a[`${p}tool_calls.${k}.id`]) ?? '', name, arguments: argsOf(a[`${p}tool_calls.${k}.arguments`]) });
    }
    const content = a[`${p}content`];
    out.push({ role, text: typeof content === 'string' ? (contentText(jsonAttr(content)) ?? content) : null, toolCalls, toolCallId: str(a[`${p}tool_call_id`]), finishReason: str(a[`${p}finish_reason`]) });
  }
  return out.length > 0 ? out : null;
}

const INPUT_EVENTS: Record<string, Role> = {
  [EVENT_GEN_AI_SYSTEM_MESSAGE]: 'system',
  [EVENT_GEN_AI_USER_MESSAGE]: 'user',
  [EVENT_GEN_AI_ASSISTANT_MESSAGE]: 'assistant',
  [EVENT_GEN_AI_TOOL_MESSAGE]: 'tool',
};

/** The event's body (a log record's, kept under `body`; a span event's `gen_ai.event.content` JSON). */
function eventBody(e: SpanEventRecord): Obj {
  const body = e.attributes.body;
  if (isObj(body)) return body;
  const content = jsonAttr(e.attributes['gen_ai.event.content']);
  // Strands: the body's fields are the event's own attributes (`content`, `message`, `id`, …).
  return isObj(content) ? content : (e.attributes as Obj);
}

/**
 * Bedrock Converse content blocks (Strands sends them as a JSON string): `{text}`, `{json}`,
 * `{toolUse: {name, toolUseId, input}}` (or flat `{type: 'toolUse', …}`), `{toolResult: {toolUseId,
 * content: [blocks]}}`; null when the value is not such a list.
 */
function converseBlocks(v: unknown): Pick<NormMessage, 'text' | 'toolCalls' | 'toolCallId'> | null {
  const parsed = typeof v === 'string' ? jsonAttr(v) : v;
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isObj)) return null;
  const blocks = parsed as Obj[];
  const known = (b: Obj) => typeof b.text === 'string' || 'json' in b || isObj(b.toolUse) || isObj(b.toolResult) || b.type === 'toolUse';
  if (!blocks.every(known)) return null;
  const texts: string[] = [];
  const toolCalls: NormCall[] = [];
  let toolCallId: string | null = null;
  for (const b of blocks) {
    if (typeof b.text === 'string') texts.push(b.text);
    else if ('json' in b) texts.push(JSON.stringify(b.json ?? null));
    const use = isObj(b.toolUse) ? b.toolUse : b.type === 'toolUse' ? b : null;
    if (use) toolCalls.push({ toolUseId: str(use.toolUseId) ?? '', name: str(use.name) ?? '', arguments: argsOf(use.input) });
    if (isObj(b.toolResult)) {
      toolCallId = str(b.toolResult.toolUseId);
      const inner = converseBlocks(b.toolResult.content);
      if (inner?.text) texts.push(inner.text);
    }
  }
  return { text: joinText(texts), toolCalls: toolCalls.filter((c) => c.name !== ''), toolCallId };
}

/** Input and output messages from GenAI content events (span events or log records, in time order). */
export function eventMessages(events: SpanEventRecord[]): { input: NormMessage[] | null; output: NormMessage[] | null } {
  const input: NormMessage[] = [];
  const output: NormMessage[] = [];
  const sorted = [...events].sort((x, y) => (x.timeNs < y.timeNs ? -1 : x.timeNs > y.timeNs ? 1 : 0));
  for (const e of sorted) {
    const name = e.name === 'log' ? (str(e.attributes['event.name']) ?? e.name) : e.name;
    const role = INPUT_EVENTS[name];
    if (role) {
      const b = eventBody(e);
      const blocks = converseBlocks(b.content);
      if (blocks) {
        input.push({ role, ...blocks, toolCallId: blocks.toolCallId ?? (role === 'tool' ? str(b.id) : null) });
        continue;
      }
      input.push({ role, text: contentText(b.content) ?? (b.content !== undefined && b.content !== null ? JSON.stringify(b.content) : null), toolCalls: openAiCalls(b.tool_calls), toolCallId: role === 'tool' ? str(b.id) : null });
    } else if (name === EVENT_GEN_AI_CHOICE) {
      const b = eventBody(e);
      const blocks = converseBlocks(b.message);
      if (blocks || typeof b.message === 'string') {
        output.push({ role: 'assistant', text: blocks ? blocks.text : (b.message as string), toolCalls: blocks?.toolCalls ?? [], toolCallId: null, finishReason: str(b.finish_reason) });
        continue;
      }
      const m = isObj(b.message) ? b.message : {};
      output.push({ role: 'assistant', text: contentText(m.content), toolCalls: openAiCalls(m.tool_calls), toolCallId: null, finishReason: str(b.finish_reason) });
    } else if (name === 'gen_ai.content.prompt') {
      input.push(...(messageList(e.attributes[ATTR_GEN_AI_PROMPT]) ?? []));
    } else if (name === 'gen_ai.content.completion') {
      output.push(...(messageList(e.attributes[ATTR_GEN_AI_COMPLETION]) ?? []));
    }
  }
  return { input: input.length > 0 ? input : null, output: output.length > 0 ? output : null };
}

/** The text of every message of a role, joined; null when there is none. */
export function textOfRole(messages: NormMessage[] | null, role: Role): string | null {
  return joinText((messages ?? []).filter((m) => m.role === role && m.text !== null).map((m) => m.text as string));
}

/**
 * The messages a model call saw in the harness's own Converse shape (system messages left out:
 * they are the run's system prompt), so replay shows them like a run made here.
 */
export function toConverse(messages: NormMessage[]): JsonValue[] {
  const out: Array<{ role: 'user' | 'assistant'; content: JsonValue[] }> = [];
  const push = (role: 'user' | 'assistant', block: JsonValue) => {
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      push('user', { toolResult: { toolUseId: m.toolCallId ?? '', content: [{ text: m.text ?? '' }], status: 'success' } });
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    if (m.text !== null && m.text !== '') push(role, { text: m.text });
    for (const c of m.toolCalls) push(role, { toolUse: { toolUseId: c.toolUseId, name: c.name, input: c.arguments } });
  }
  return out as unknown as JsonValue[];
}

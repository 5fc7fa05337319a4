/**
 * The dispatcher and result wrapper (SPEC.md §7.1): binds keyword arguments, runs the tool and
 * turns every tool failure into a structured `{error, message}` result. It never throws for a
 * tool failure; an unexpected exception is a bug in this library and is rethrown.
 */
import type { ToolResult } from '../../harness';
import { isJsonObject, type JsonValue } from '../../harness';
import { pyJson, type FloatKeys } from '../../harness';
import { pyLen, pyTypeName } from '../../harness';
import { BadArgumentsError, ToolError } from './errors';
import { TOOL_DEFINITIONS, type ToolDefinition } from './registry';
import type { ToolContext } from './tool-context';

/** Python-style binding of keyword arguments: unknown names first, then missing required ones. */
export function bindArguments(tool: ToolDefinition, args: JsonValue): Record<string, JsonValue> {
  if (!isJsonObject(args)) throw new BadArgumentsError(`arguments must be a JSON object, got ${pyTypeName(args)}`);
  for (const key of Object.keys(args)) {
    if (!tool.params.some((p) => p.name === key)) {
      throw new BadArgumentsError(`${tool.name}() got an unexpected keyword argument '${key}'`);
    }
  }
  const missing = tool.params.filter((p) => p.required && !Object.prototype.hasOwnProperty.call(args, p.name));
  if (missing.length > 0) {
    const names = missing.map((p) => `'${p.name}'`);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    throw new BadArgumentsError(
      `${tool.name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`,
    );
  }
  return args;
}

/** An error result; `payloadChars` counts the default (ASCII-escaped) Python-JSON. */
export function errorResult(code: string, message: string): ToolResult {
  const content = { error: code, message };
  return { content, isError: true, errorCode: code, payloadChars: pyLen(pyJson(content)) };
}

// Frozen results (the whole catalogue under oversized_payload) never change, so their length is
// computed once per float-key set instead of re-serialising ~50 kB on every call.
const frozenLengths = new WeakMap<FloatKeys, WeakMap<object, number>>();

/** Length of the success payload's Python-JSON with ensure_ascii false. */
export function successPayloadChars(content: JsonValue, floatKeys: FloatKeys): number {
  if (content === null || typeof content !== 'object' || !Object.isFrozen(content)) {
    return pyLen(pyJson(content, { ensureAscii: false, floatKeys }));
  }
  let memo = frozenLengths.get(floatKeys);
  if (!memo) frozenLengths.set(floatKeys, (memo = new WeakMap()));
  let n = memo.get(content);
  if (n === undefined) memo.set(content, (n = pyLen(pyJson(content, { ensureAscii: false, floatKeys }))));
  return n;
}

/** Runs one tool call and wraps the outcome. */
export function dispatchToolCall(ctx: ToolContext, name: string, args: JsonValue): ToolResult {
  const tool = TOOL_DEFINITIONS.get(name);
  if (!tool) return errorResult('unknown_tool', `unknown tool ${name}`);
  try {
    const content = tool.run(ctx, bindArguments(tool, args));
    return { content, isError: false, errorCode: null, payloadChars: successPayloadChars(content, ctx.dataset.floatKeys) };
  } catch (err) {
    if (err instanceof BadArgumentsError) return errorResult('bad_arguments', `bad arguments: ${err.message}`);
    if (err instanceof ToolError) return errorResult(err.code, err.message);
    throw err;
  }
}

/**
 * What a failed tools/call becomes: a tool result the model reads (a read's timeout, a JSON-RPC
 * refusal, a read cancelled), or a thrown error (a lost connection; a write whose outcome is unknown,
 * which its journal then records as such). Never a write reported as failed when it may have applied.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ExecutorError, type FloatKeys, type ToolResult } from '../../harness';
import { isConnectionLoss, McpConnectionLostError } from './connection-lost';
import { payloadChars } from './normalise-result';

/** Who failed the call, for its words. */
export interface CallSite {
  transport: string;
  serverId: string;
  target: string;
  floatKeys: FloatKeys;
  requestTimeoutMs: number;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A request that failed for a reason that is not the tool's: named with the transport and target. */
export function connectionError(site: CallSite, what: string, err: unknown): ExecutorError {
  return new ExecutorError(site.transport, `${what} failed over ${site.transport} (${site.target}): ${messageOf(err)}`, { cause: err });
}

/**
 * Timeouts of reads are transient tool errors (as on the local path); a lost connection is not a
 * tool result. A write sent with an operation key that times out may have been applied: its
 * outcome is unknown, so it is thrown (the journal records `unknown`), never reported as failed.
 * `markLost` marks the executor's connection lost and returns that error.
 */
export function callFailure(site: CallSite, name: string, err: unknown, operationKey: string | undefined, markLost: (detail: string, cause: unknown) => McpConnectionLostError): ToolResult {
  if (err instanceof McpConnectionLostError || isConnectionLoss(err)) {
    const lost = err instanceof McpConnectionLostError ? err : markLost(`connection lost (${messageOf(err)})`, err);
    // A write that was sent may have been applied before the server went: its outcome is unknown.
    if (operationKey === undefined) throw lost;
    throw new McpConnectionLostError(site.transport, site.serverId, site.target, `${lost.detail}; ${name} (${operationKey}) was sent and its outcome is unknown`, { cause: lost });
  }
  if (operationKey !== undefined && err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    throw new ExecutorError(site.transport, `${name} (${operationKey}) was sent over ${site.transport} and timed out after ${site.requestTimeoutMs} ms: its outcome is unknown`, { cause: err });
  }
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    const content = { error: 'transient', message: `${name} timed out after ${site.requestTimeoutMs} ms over ${site.transport}` };
    return { content, isError: true, errorCode: 'transient', payloadChars: payloadChars(content, true, site.floatKeys) };
  }
  if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) {
    // A JSON-RPC refusal (unknown tool, invalid params) from a server that does not use isError.
    const content = { error: err.code === ErrorCode.InvalidParams ? 'bad_arguments' : 'tool_error', message: err.message };
    return { content, isError: true, errorCode: content.error, payloadChars: payloadChars(content, true, site.floatKeys) };
  }
  throw connectionError(site, `tools/call ${name}`, err);
}

/**
 * A call cancelled while it ran (the server was sent notifications/cancelled). A read comes back
 * as a `cancelled` error result; a write may have been applied before the cancel reached the
 * server, so its outcome is unknown and it is thrown for the journal to record as such.
 */
export function cancelledCall(site: CallSite, name: string, signal: AbortSignal, operationKey: string | undefined, err: unknown): ToolResult {
  const why = signal.reason instanceof Error ? signal.reason.message : 'the call was cancelled';
  if (operationKey !== undefined) {
    throw new ExecutorError(site.transport, `${name} (${operationKey}) was cancelled over ${site.transport} (${why}): its outcome is unknown`, { cause: err });
  }
  const content = { error: 'cancelled', message: `${name} was cancelled: ${why}` };
  return { content, isError: true, errorCode: 'cancelled', payloadChars: payloadChars(content, true, site.floatKeys) };
}

/**
 * A request lost with a session that was replaced while it was in flight: not a sign that the new
 * one is gone. A write's outcome is unknown (thrown, so its journal records it so).
 */
export function replacedUnderfoot(site: CallSite, what: string, err: unknown, operationKey?: string): ExecutorError {
  const outcome = operationKey !== undefined ? `; ${operationKey} was sent and its outcome is unknown` : '';
  return new ExecutorError(site.transport, `${what} was in flight in an MCP session that was replaced (${messageOf(err)})${outcome}`, { cause: err });
}

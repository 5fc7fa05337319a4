/**
 * New sessions an MCP executor opened with its tool server during a run (a server that ended the old
 * one: reaped while idle, restarted) are stored in the guard event table under the guard name
 * `tool_session` (reason: why; detail: JSON of the call, the server and what happened), as model-call
 * retries are, so replay lists them in place without a table of their own.
 */
import { SESSION_RENEWAL_REASONS, type SessionRenewalReason, type ToolSessionEvent } from '../../harness';

export const TOOL_SESSION_GUARD = 'tool_session';

export function toolSessionDetail(e: ToolSessionEvent): string {
  return JSON.stringify({ toolUseId: e.toolUseId, name: e.name, server: e.server, detail: e.detail });
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The event of a row (its tree columns are added by the caller); a detail not in its form keeps its text. */
export function toolSessionFromRow(r: { step: number; reason: string; detail: string }): ToolSessionEvent {
  let d: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(r.detail);
    d = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { detail: r.detail };
  } catch {
    d = { detail: r.detail };
  }
  const reason: SessionRenewalReason = (SESSION_RENEWAL_REASONS as readonly string[]).includes(r.reason) ? (r.reason as SessionRenewalReason) : 'session_ended';
  return { kind: 'tool_session', step: r.step, toolUseId: text(d.toolUseId), name: text(d.name), server: text(d.server), reason, detail: text(d.detail) };
}

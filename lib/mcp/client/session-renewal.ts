/**
 * A new MCP session when the server ended the old one. The spec (transports, session management):
 * a client that receives HTTP 404 for a request bearing its `Mcp-Session-Id` MUST start a new session
 * with a fresh initialize and no session id. Our servers reap a session idle for five minutes and
 * forget every one when they restart, so a run that sat quiet (a pending approval, a slow model) or
 * whose server restarted met "Session not found" on its next call. The request answered 404 was not
 * processed, so it is sent once more in the new session — a write under the same operation key.
 *
 * What the first session settled is settled again before that: the same URL, headers and OAuth
 * provider (McpConnection.reopen), the same capabilities in the handshake, the same server (its
 * name), the weakness flags confirmed again (the creator's SessionCheck), the tool list re-read. A
 * session that fails any of these is refused, naming what is missing, and the executor refuses every
 * later call: it never goes on quietly with other flags.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ExecutorError, type SessionRenewalReason } from '../../harness';
import { readWeaknessCapability, requestedWeaknessCapability, type WeaknessCapability } from '../shared';
import { displayUrl } from './server-config';

/** What a check of a new session may read of it (the executor's own view of its current session). */
export interface SessionView {
  /** What was connected to (a URL, with `?weaknesses=` when the flags were asked for there). */
  readonly target: string;
  serverInfo(): { name: string; version: string } | undefined;
  serverWeaknesses(): WeaknessCapability | undefined;
}

/** Why a session cannot be used (it lacks what the first one confirmed), or null when it can. */
export type SessionCheck = (session: SessionView) => string | null;

/** Whether `err` is the server's HTTP 404 to a request that carried a session id (`hadSession`). */
export function isSessionNotFound(err: unknown, hadSession: boolean): boolean {
  return hadSession && err instanceof StreamableHTTPError && err.code === 404;
}

/** The server as its URL shows it, without credentials or query values. */
function serverLabel(server: string, target: string): string {
  const where = URL.canParse(target) ? displayUrl(target) : target;
  return server === target ? `the MCP server at ${where}` : `the MCP server '${server}' at ${where}`;
}

/**
 * The server ended the session and a new one could not be made to serve (the new one was answered
 * 404 again, could not be opened, or lacks what the first one confirmed). Names the server and its
 * URL (never a header, token or query value), and what went wrong.
 */
export class McpSessionError extends ExecutorError {
  override readonly code: string = 'mcp_session_not_reestablished';
  readonly server: string;
  readonly detail: string;
  constructor(transport: string, server: string, target: string, detail: string, options?: { cause?: unknown }) {
    super(transport, `${serverLabel(server, target)} ended the MCP session and it could not be re-established: ${detail}`, options);
    this.server = server;
    this.detail = detail;
  }
}

/** Why the new session's server is not the first one's: another server answers at the address now. */
export function identityChange(first: string | undefined, now: string | undefined): string | null {
  if (first === now) return null;
  return `the new session's server names itself '${now ?? 'nothing'}', not '${first ?? 'nothing'}' as the first session's did`;
}

/** How the tool list read in the new session compares with the old one, in words. */
export function toolListChange(before: readonly Tool[], after: readonly Tool[]): string {
  const names = (tools: readonly Tool[]) => tools.map((t) => t.name);
  if (JSON.stringify(before) === JSON.stringify(after)) return `its tool list re-read, unchanged (${after.length} tools)`;
  const added = names(after).filter((n) => !names(before).includes(n));
  const removed = names(before).filter((n) => !names(after).includes(n));
  const parts = [added.length ? `added ${added.join(', ')}` : '', removed.length ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
  return `its tool list re-read: changed (${parts.length ? parts.join('; ') : 'descriptions or schemas'})`;
}

/** A client for one session, asking in its handshake for `requestWeaknesses` when given (the same for every session). */
export function sessionClient(requestWeaknesses: readonly string[] | undefined): Client {
  return new Client(
    { name: 'stockroom-harness', version: '1.0.0' },
    requestWeaknesses !== undefined ? { capabilities: { experimental: requestedWeaknessCapability(requestWeaknesses) } } : undefined,
  );
}

/** Why a new session cannot replace the first (another server, or not what the first confirmed), or null. */
export function sessionProblem(client: Client, target: string, firstServerName: string | undefined, check: SessionCheck | undefined): string | null {
  const view: SessionView = { target, serverInfo: () => client.getServerVersion(), serverWeaknesses: () => readWeaknessCapability(client.getServerCapabilities()) };
  return identityChange(firstServerName, client.getServerVersion()?.name) ?? check?.(view) ?? null;
}

/** What the record says of a new session: why, what it was opened for, what was done again in it. */
export function renewalDetail(reason: SessionRenewalReason, during: string, toolList: string, confirmedFlags: WeaknessCapability | undefined): string {
  const cause =
    reason === 'session_ended'
      ? `the server answered HTTP 404 for the session ${during} (it had ended it: reaped after sitting idle, or the server restarted)`
      : `the server had stopped answering and answered again ${during}`;
  return [
    cause,
    'a new session was opened',
    toolList,
    ...(confirmedFlags ? [`weakness flags [${confirmedFlags.active.join(', ') || 'none'}] confirmed again`] : []),
    'what the old session held on the server is not in the new one',
  ].join('; ');
}

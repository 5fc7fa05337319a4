/**
 * A tool server that went away: the process died, the connection was refused, or the stream
 * closed. Typed apart from a timeout (a server that is there but slow) so a run can say the server
 * is gone, naming it, instead of waiting out the request timeout and calling it transient.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ExecutorError } from '../../harness';

/** How long a liveness probe may take after the transport reported an error. */
export const LIVENESS_PROBE_MS = 1_000;

export class McpConnectionLostError extends ExecutorError {
  override readonly code: string = 'mcp_connection_lost';
  /** The server's id (config id, `stockroom`, or its URL / command line). */
  readonly server: string;
  /** What was seen (the connection closed, a stream broke off, …). */
  readonly detail: string;
  readonly target: string;
  constructor(transport: string, server: string, target: string, detail: string, options?: { cause?: unknown }) {
    super(transport, `the MCP server '${server}' is gone over ${transport} (${target}): ${detail}`, options);
    this.server = server;
    this.detail = detail;
    this.target = target;
  }
}

function causes(err: unknown): string {
  const parts: string[] = [];
  let at: unknown = err;
  for (let depth = 0; at !== undefined && at !== null && depth < 4; depth += 1) {
    if (at instanceof Error) {
      parts.push(`${at.name} ${at.message} ${(at as { code?: unknown }).code ?? ''}`);
      at = at.cause;
    } else {
      parts.push(String(at));
      break;
    }
  }
  return parts.join(' | ');
}

/**
 * Whether `err` says the peer is unreachable (as opposed to slow or refusing the request): a
 * closed MCP connection, a refused or reset socket, a fetch that failed before any answer, a
 * stream that broke off.
 */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof McpError) return err.code === ErrorCode.ConnectionClosed;
  return /ECONNREFUSED|ECONNRESET|EPIPE|ENOTCONN|UND_ERR_SOCKET|other side closed|fetch failed|terminated|SSE stream disconnected|Maximum reconnection attempts|socket hang up|Not connected/i.test(
    causes(err),
  );
}

/**
 * Whether the executor's server is known to be gone, and the requests that wait on it: once it is,
 * every request in flight and every later one fails at once with the typed error. A new session
 * (session-renewal.ts) clears it.
 */
export class LossWatch {
  /** Set once the server is known to be gone. */
  lost: McpConnectionLostError | null = null;
  private readonly waiters = new Set<(err: McpConnectionLostError) => void>();
  private probing = false;

  /** `make` builds the error naming the server; while `closed()`, nothing is marked. */
  constructor(
    private readonly make: (detail: string, cause: unknown) => McpConnectionLostError,
    private readonly closed: () => boolean,
  ) {}

  /** Fails every request in flight, and every later one, with a typed error naming the server. */
  mark(detail: string, cause?: unknown): McpConnectionLostError {
    if (this.lost) return this.lost;
    const err = this.make(detail, cause);
    if (this.closed()) return err;
    this.lost = err;
    for (const reject of this.waiters) reject(err);
    this.waiters.clear();
    return err;
  }

  /**
   * A transport error that looks like a lost connection is checked with `ping`: a server that is
   * gone cannot answer it (a refused connection fails at once), one that is only slow or whose
   * notification stream blinked answers and nothing changes.
   */
  probe(err: unknown, ping: () => Promise<unknown>): void {
    if (this.closed() || this.lost || this.probing || !isConnectionLoss(err)) return;
    this.probing = true;
    const detail = err instanceof Error ? err.message : String(err);
    ping()
      .then(
        () => undefined,
        (pingErr: unknown) => {
          if (isConnectionLoss(pingErr)) this.mark(`connection lost (${detail})`, err);
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }

  /** `work`, unless the connection is lost first. */
  whileConnected<T>(work: Promise<T>): Promise<T> {
    if (this.lost) {
      work.catch(() => undefined); // already started: its own failure says nothing more
      return Promise.reject(this.lost);
    }
    let reject!: (err: McpConnectionLostError) => void;
    const lost = new Promise<never>((_resolve, r) => {
      reject = r;
    });
    this.waiters.add(reject);
    return Promise.race([work, lost]).finally(() => this.waiters.delete(reject));
  }
}

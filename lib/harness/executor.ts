/**
 * The tool executor seam: the harness lists specs, calls tools and resets per-run state through
 * this interface and never knows whether the tools run in-process or behind an MCP server.
 */
import type { JsonObject, JsonValue } from './json';
import type { SessionRenewalReason, ToolSpec } from './types';

/** What a tool call came back with, before the harness validates, guards or sanitises anything. */
export interface ToolResult {
  /** The tool's return value, or `{error, message}` for a failure. */
  content: JsonValue;
  isError: boolean;
  /** `invalid_request`, `transient`, `unknown_tool`, `bad_arguments`, … or null on success. */
  errorCode: string | null;
  /** Length of the result's Python-JSON (informational): what the model is sent, not attachments. */
  payloadChars: number;
  /**
   * Parts of the result that are not text (an MCP server's images, audio, resource links, embedded
   * resources), whole; `content` holds what the model reads of them. Stored with the run for replay.
   */
  media?: JsonObject[];
  /**
   * The tool declared an outputSchema and broke it: what was wrong (`content` is then the error the
   * model reads, `errorCode` `output_schema_violation`).
   */
  schemaViolation?: string;
}

/** Per-call context a tool may use (the operation key makes a write idempotent downstream). */
export interface ToolCallContext {
  operationKey?: string;
  /**
   * The approval this call was dispatched under (set by the governance layer for the one call a
   * reviewer approved): a downstream that would hold the write for a manager's sign-off takes it as given.
   */
  approval?: { id: string };
  /**
   * Aborted when the call must stop: the run's wall-clock deadline passed or the run was cancelled.
   * An executor that can cancel a call in flight does (MCP sends notifications/cancelled).
   */
  signal?: AbortSignal;
  /** Told of progress the tool reports while it runs (MCP notifications/progress). */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * Told when the executor had to open a new session with the tool's server to answer this call
   * (the server had ended the old one, or the connection had been lost and came back); recorded
   * beside the call. Also told of one opened since the last call (at the run's reset, re-reading
   * the tool list), which `detail` says.
   */
  onSessionRenewed?: (renewal: ToolSessionRenewal) => void;
}

/** A new session an executor opened with its tool server, and what it did to make it like the old one. */
export interface ToolSessionRenewal {
  /** The tool server, as governance names it. */
  server: string;
  reason: SessionRenewalReason;
  /** What happened, in words (no secrets: no session ids, tokens or query values). */
  detail: string;
}

/** How far a running tool call has got, as the tool reports it. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolExecutor {
  /** The specs the model is shown, in the order it sees them. */
  listSpecs(): Promise<ToolSpec[]>;
  call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult>;
  /** Clears per-run state (restock ledger, legacy-shard attempt counters). */
  reset(): Promise<void>;
  /** Releases connections; a no-op for in-process executors. */
  close(): Promise<void>;
  /** A short label for logs and stored runs (`local`, `mcp-stdio`, …). */
  readonly transport: string;
}

/**
 * Rewrites a tool result after the tool ran (for example capping an oversized payload). Distinct
 * from run guards, which decide before a call runs.
 */
export interface PayloadWrapper {
  readonly name: string;
  wrap(call: { name: string; arguments: JsonValue }, result: ToolResult): ToolResult;
}

/**
 * An executor that hands everything to `inner`: the base of wrappers that change one part (a call's
 * dispatch, closing) and forward the rest unchanged.
 */
export class ForwardingExecutor implements ToolExecutor {
  readonly transport: string;

  constructor(readonly inner: ToolExecutor) {
    this.transport = inner.transport;
  }

  listSpecs(): Promise<ToolSpec[]> {
    return this.inner.listSpecs();
  }

  call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    return this.inner.call(name, args, context);
  }

  reset(): Promise<void> {
    return this.inner.reset();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

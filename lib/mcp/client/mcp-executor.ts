/**
 * The MCP tool executor: the harness's ToolExecutor over one MCP client session, with any MCP
 * server. The specs the model sees are built from the server's tools/list answer (no local copy of
 * the descriptions). Per-run state is reset only on the harness's own tool servers, recognised by
 * identity — the executor was told it started that server itself (`ownServer`) and the server's
 * initialize result names the Stockroom server — never by a tool's name: a stranger's tool called
 * `reset_session_state` is just one of its tools, shown to the model and governed like the rest.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { ExecutorError } from '../../harness';
import type { ToolCallContext, ToolExecutor, ToolResult } from '../../harness';
import { isJsonObject, type JsonObject, type JsonValue } from '../../harness';
import type { FloatKeys } from '../../harness';
import type { ToolSpec } from '../../harness';
import type { ToolSource } from '../../governance';
import type { ToolHints } from '../../governance';
import { isConnectionLoss, LIVENESS_PROBE_MS, McpConnectionLostError } from './connection-lost';
import { normaliseCallToolResult, payloadChars } from './normalise-result';
import { OutputSchemas, schemaViolationResult } from './output-schema';
import { authorizationAdvice, isUnauthorized, protectedResourceOf } from './oauth/needs-authorization';
import { lookupOverMcp } from '../shared';
import { HIDDEN_META_KEY, APPROVAL_META_KEY, OPERATION_KEY_META_KEY, readWeaknessCapability, RESET_TOOL_NAME, STOCKROOM_SERVER_INFO, type WeaknessCapability } from '../shared';
import { requestedWeaknessCapability } from '../shared';
import { CLOSE_TIMEOUT_MS, CONNECT_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './timeouts';

/** A client-side transport not yet started, with what is needed to describe and tear it down. */
export interface McpConnection {
  transport: Transport;
  /** The executor's transport label: `mcp-memory`, `mcp-stdio`, `mcp-http`. */
  label: string;
  /** What was connected to (a command line, a URL), for error messages. */
  target: string;
  /** Runs before the client closes (an HTTP session is terminated with DELETE). */
  beforeClose?: () => Promise<void>;
  /** Runs after the client closed (an in-process server is stopped). */
  afterClose?: () => Promise<void>;
  /** Extra context for a connection error (a child's last stderr lines). */
  diagnostics?: () => string;
}

export interface McpExecutorOptions {
  /** Keys printed as floats when measuring payloads; serialisation only, never tool behaviour. */
  floatKeys?: FloatKeys;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * The tool server's id for governance (config/mcp-servers.json's id; `stockroom` for the
   * harness's own servers). Without one the server is named by its target (command line or URL).
   */
  serverId?: string;
  /**
   * Weakness flags to ask the server for in the handshake (a stdio server started with
   * --session-weaknesses builds the session with them). The caller still confirms what the server
   * states: a server may ignore the request.
   */
  requestWeaknesses?: readonly string[];
  /**
   * Set only by createExecutor for a server it started itself (in-memory, its own stdio child, its
   * own in-process HTTP server). Only such a server gets the per-run reset and has its private
   * tools hidden; whatever a configured or user-given server lists, it is never treated as ours.
   */
  ownServer?: boolean;
}

const NO_FLOAT_KEYS: FloatKeys = new Set();

/** A tool clients should not show a model: marked so by the server (our lookup and reset tools). */
function isHidden(tool: Tool): boolean {
  return tool._meta?.[HIDDEN_META_KEY] === true;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class McpToolExecutor implements ToolExecutor {
  readonly transport: string;
  private readonly floatKeys: FloatKeys;
  private readonly requestTimeoutMs: number;
  private specs: Promise<ToolSpec[]> | null = null;
  private tools: Tool[] = [];
  /** The outputSchemas of the last full tools/list, each result of theirs checked against. */
  private readonly outputSchemas = new OutputSchemas();
  private listed = false;
  private closed = false;
  /** The server's id for governance (see McpExecutorOptions.serverId). */
  readonly serverId: string;
  private readonly ownServer: boolean;
  /** Set once the server is known to be gone; every later request fails with it at once. */
  private lost: McpConnectionLostError | null = null;
  private readonly lostWaiters = new Set<(err: McpConnectionLostError) => void>();
  private probing = false;

  private constructor(
    private readonly client: Client,
    private readonly connection: McpConnection,
    options: McpExecutorOptions,
  ) {
    this.transport = connection.label;
    this.floatKeys = options.floatKeys ?? NO_FLOAT_KEYS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.serverId = options.serverId ?? connection.target;
    this.ownServer = options.ownServer === true;
    // A server that changes its tools says so; the next listSpecs() asks again.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.specs = null;
    });
    // A stdio child that exits closes the connection; an HTTP server that dies breaks its streams
    // (the SDK reports it as a transport error and leaves the request waiting for its timeout).
    client.onclose = () => this.markLost('the connection closed');
    client.onerror = (err) => this.probeAfterError(err);
  }

  /** Fails every request in flight, and every later one, with a typed error naming the server. */
  private markLost(detail: string, cause?: unknown): McpConnectionLostError {
    if (this.lost) return this.lost;
    const err = new McpConnectionLostError(this.transport, this.serverId, this.connection.target, detail, { cause });
    if (this.closed) return err;
    this.lost = err;
    for (const reject of this.lostWaiters) reject(err);
    this.lostWaiters.clear();
    return err;
  }

  /**
   * A transport error that looks like a lost connection is checked with a ping: a server that is
   * gone cannot answer it (a refused connection fails at once), one that is only slow or whose
   * notification stream blinked answers and nothing changes.
   */
  private probeAfterError(err: unknown): void {
    if (this.closed || this.lost || this.probing || !isConnectionLoss(err)) return;
    this.probing = true;
    const detail = err instanceof Error ? err.message : String(err);
    this.client
      .ping({ timeout: LIVENESS_PROBE_MS })
      .then(
        () => undefined,
        (pingErr: unknown) => {
          if (isConnectionLoss(pingErr)) this.markLost(`connection lost (${detail})`, err);
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }

  /** `work`, unless the connection is lost first. */
  private whileConnected<T>(work: Promise<T>): Promise<T> {
    if (this.lost) {
      work.catch(() => undefined); // already started: its own failure says nothing more
      return Promise.reject(this.lost);
    }
    let reject!: (err: McpConnectionLostError) => void;
    const lost = new Promise<never>((_resolve, r) => {
      reject = r;
    });
    this.lostWaiters.add(reject);
    return Promise.race([work, lost]).finally(() => this.lostWaiters.delete(reject));
  }

  /**
   * Opens one client session over `connection` (held for many runs until close()). A server that
   * cannot be reached fails with an ExecutorError naming the transport and target.
   */
  static async connect(connection: McpConnection, options: McpExecutorOptions = {}): Promise<McpToolExecutor> {
    const client = new Client(
      { name: 'stockroom-harness', version: '1.0.0' },
      options.requestWeaknesses !== undefined ? { capabilities: { experimental: requestedWeaknessCapability(options.requestWeaknesses) } } : undefined,
    );
    try {
      await client.connect(connection.transport, { timeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS });
    } catch (err) {
      await withinMs(client.close().catch(() => undefined), CLOSE_TIMEOUT_MS);
      await connection.afterClose?.().catch(() => undefined);
      if (connection.label === 'mcp-http' && isUnauthorized(err)) {
        // Not the server's "Missing Authorization header": what to do about it here, naming the keys.
        const advice = authorizationAdvice(connection.target, options.serverId, await protectedResourceOf(connection.target));
        throw new ExecutorError(connection.label, advice, { cause: err });
      }
      const diagnostics = connection.diagnostics?.().trim();
      throw new ExecutorError(
        connection.label,
        `could not connect to the MCP server over ${connection.label} (${connection.target}): ${messageOf(err)}` +
          (diagnostics ? `\nserver stderr:\n${diagnostics}` : ''),
        { cause: err },
      );
    }
    return new McpToolExecutor(client, connection, options);
  }

  /** What the server says about itself (name, version) after the handshake. */
  serverInfo(): { name: string; version: string } | undefined {
    return this.client.getServerVersion();
  }

  /** The weakness flags the server stated in its initialize result; undefined when it states none. */
  serverWeaknesses(): WeaknessCapability | undefined {
    return readWeaknessCapability(this.client.getServerCapabilities());
  }

  /** What the connection reached (a command line or a URL). */
  get target(): string {
    return this.connection.target;
  }

  /** Every tool the server lists for clients (hidden ones left out), with titles, annotations and schemas. */
  async listTools(): Promise<Tool[]> {
    await this.listSpecs();
    return this.tools.filter((tool) => !isHidden(tool)).map((tool) => structuredClone(tool));
  }

  /** The server's id and its read-only/destructive hints per tool, for the capability pin. */
  async toolSource(): Promise<ToolSource> {
    await this.listSpecs();
    const hints = new Map<string, ToolHints>();
    for (const tool of this.tools) {
      const { readOnlyHint, destructiveHint } = tool.annotations ?? {};
      hints.set(tool.name, { ...(readOnlyHint !== undefined ? { readOnlyHint } : {}), ...(destructiveHint !== undefined ? { destructiveHint } : {}) });
    }
    return { server: this.serverId, hints };
  }

  /**
   * Whether this is one of the harness's own servers: started by createExecutor (`ownServer`) and
   * naming itself the Stockroom server in its initialize result. A tool name proves nothing.
   */
  isOwnServer(): boolean {
    return this.ownServer && this.client.getServerVersion()?.name === STOCKROOM_SERVER_INFO.name;
  }

  /** Whether the per-run reset applies: our own server, offering its hidden reset tool. */
  async offersReset(): Promise<boolean> {
    if (!this.isOwnServer()) return false;
    await this.listSpecs();
    return this.tools.some((tool) => tool.name === RESET_TOOL_NAME && isHidden(tool));
  }

  listSpecs(): Promise<ToolSpec[]> {
    this.specs ??= this.fetchSpecs().catch((err: unknown) => {
      this.specs = null;
      throw err;
    });
    return this.specs.then((specs) => specs.map((s) => ({ ...s })));
  }

  private async fetchSpecs(): Promise<ToolSpec[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request('tools/list', () =>
        this.client.listTools(cursor ? { cursor } : undefined, { timeout: this.requestTimeoutMs }),
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.outputSchemas.update(tools);
    this.listed = true;
    return tools
      .filter((tool) => !isHidden(tool))
      .map((tool) => ({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema as JsonObject }));
  }

  async call(name: string, args: JsonValue, context?: ToolCallContext): Promise<ToolResult> {
    if (this.closed) throw new ExecutorError(this.transport, `tools/call ${name}: the ${this.transport} executor is closed`);
    if (!isJsonObject(args)) {
      // MCP carries arguments as an object; anything else cannot be sent.
      const content = { error: 'bad_arguments', message: 'bad arguments: arguments must be a JSON object' };
      return { content, isError: true, errorCode: 'bad_arguments', payloadChars: payloadChars(content, true, this.floatKeys) };
    }
    if (this.lost) return this.callFailure(name, this.lost, context?.operationKey);
    // A result is checked against its tool's declared outputSchema: the schemas must be known first.
    if (!this.listed) await this.listSpecs().catch(() => undefined);
    try {
      // client.request, not client.callTool: the output schema is checked here (output-schema.ts).
      const result = await this.whileConnected(this.client.request(
        { method: 'tools/call', params: {
          name,
          arguments: args,
          ...(context?.operationKey || context?.approval
            ? {
                _meta: {
                  ...(context.operationKey ? { [OPERATION_KEY_META_KEY]: context.operationKey } : {}),
                  ...(context.approval ? { [APPROVAL_META_KEY]: context.approval.id } : {}),
                },
              }
            : {}),
        } },
        CallToolResultSchema,
        {
          timeout: this.requestTimeoutMs,
          // Asking for progress sends a progressToken with every call; a server may report against it.
          onprogress: (p) => context?.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
          // Aborting sends notifications/cancelled to the server (the run's deadline, a stop).
          ...(context?.signal ? { signal: context.signal } : {}),
        },
      ));
      this.expectListChange();
      const violation = this.outputSchemas.violation(name, result as CallToolResult);
      if (violation !== null) return schemaViolationResult(violation, this.floatKeys);
      return normaliseCallToolResult(result as CallToolResult, this.floatKeys);
    } catch (err) {
      if (context?.signal?.aborted && !(err instanceof McpConnectionLostError)) return this.cancelled(name, context.signal, context.operationKey, err);
      return this.callFailure(name, err, context?.operationKey);
    }
  }

  /**
   * After a stranger's tool ran, its list is asked for again before the next model call: a server
   * that changed its tools during the call may send notifications/tools/list_changed after the
   * result (over streamable HTTP it travels on another stream), too late for the next model call.
   * Only for a server that says its list can change, and never for our own (its tools are fixed).
   */
  private expectListChange(): void {
    if (!this.ownServer && this.client.getServerCapabilities()?.tools?.listChanged === true) this.specs = null;
  }

  /**
   * A call cancelled while it ran (the server was sent notifications/cancelled). A read comes back
   * as a `cancelled` error result; a write may have been applied before the cancel reached the
   * server, so its outcome is unknown and it is thrown for the journal to record as such.
   */
  private cancelled(name: string, signal: AbortSignal, operationKey: string | undefined, err: unknown): ToolResult {
    const why = signal.reason instanceof Error ? signal.reason.message : 'the call was cancelled';
    if (operationKey !== undefined) {
      throw new ExecutorError(this.transport, `${name} (${operationKey}) was cancelled over ${this.transport} (${why}): its outcome is unknown`, { cause: err });
    }
    const content = { error: 'cancelled', message: `${name} was cancelled: ${why}` };
    return { content, isError: true, errorCode: 'cancelled', payloadChars: payloadChars(content, true, this.floatKeys) };
  }

  /** Asks the server whether a write was applied under `operationKey` (the hidden lookup tool). */
  lookupOperation(tool: string, operationKey: string): Promise<JsonValue | null> {
    return this.request(`lookup_operation ${operationKey}`, () => lookupOverMcp(this.client, tool, operationKey, this.requestTimeoutMs));
  }

  /**
   * Timeouts of reads are transient tool errors (as on the local path); a lost connection is not a
   * tool result. A write sent with an operation key that times out may have been applied: its
   * outcome is unknown, so it is thrown (the journal records `unknown`), never reported as failed.
   */
  private callFailure(name: string, err: unknown, operationKey?: string): ToolResult {
    if (err instanceof McpConnectionLostError || isConnectionLoss(err)) {
      const lost = err instanceof McpConnectionLostError ? err : this.markLost(`connection lost (${messageOf(err)})`, err);
      // A write that was sent may have been applied before the server went: its outcome is unknown.
      if (operationKey === undefined) throw lost;
      throw new McpConnectionLostError(this.transport, this.serverId, this.connection.target, `${lost.detail}; ${name} (${operationKey}) was sent and its outcome is unknown`, { cause: lost });
    }
    if (operationKey !== undefined && err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      throw new ExecutorError(this.transport, `${name} (${operationKey}) was sent over ${this.transport} and timed out after ${this.requestTimeoutMs} ms: its outcome is unknown`, { cause: err });
    }
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      const content = { error: 'transient', message: `${name} timed out after ${this.requestTimeoutMs} ms over ${this.transport}` };
      return { content, isError: true, errorCode: 'transient', payloadChars: payloadChars(content, true, this.floatKeys) };
    }
    if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) {
      // A JSON-RPC refusal (unknown tool, invalid params) from a server that does not use isError.
      const content = { error: err.code === ErrorCode.InvalidParams ? 'bad_arguments' : 'tool_error', message: err.message };
      return { content, isError: true, errorCode: content.error, payloadChars: payloadChars(content, true, this.floatKeys) };
    }
    throw this.connectionError(`tools/call ${name}`, err);
  }

  private async request<T>(what: string, send: () => Promise<T>): Promise<T> {
    if (this.closed) throw new ExecutorError(this.transport, `${what}: the ${this.transport} executor is closed`);
    try {
      return await this.whileConnected(send());
    } catch (err) {
      if (err instanceof McpConnectionLostError) throw err;
      if (isConnectionLoss(err)) throw this.markLost(`${what}: connection lost (${messageOf(err)})`, err);
      throw this.connectionError(what, err);
    }
  }

  private connectionError(what: string, err: unknown): ExecutorError {
    return new ExecutorError(
      this.transport,
      `${what} failed over ${this.transport} (${this.connection.target}): ${messageOf(err)}`,
      { cause: err },
    );
  }

  /** Resets per-run state through our own server's private tool; a no-op with any other server. */
  async reset(): Promise<void> {
    if (!(await this.offersReset())) return;
    const result = await this.request('reset', () =>
      this.client.callTool({ name: RESET_TOOL_NAME, arguments: {} }, CallToolResultSchema, { timeout: this.requestTimeoutMs }),
    );
    if (result.isError === true) {
      throw new ExecutorError(this.transport, `reset refused by the server over ${this.transport} (${this.connection.target})`);
    }
  }

  /** Ends the session (an HTTP session is terminated, a stdio child exits); safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.connection.beforeClose) await withinMs(this.connection.beforeClose().catch(() => undefined), CLOSE_TIMEOUT_MS);
    await withinMs(this.client.close().catch(() => undefined), CLOSE_TIMEOUT_MS);
    if (this.connection.afterClose) await withinMs(this.connection.afterClose().catch(() => undefined), CLOSE_TIMEOUT_MS);
  }
}

/**
 * The MCP tool executor: the harness's ToolExecutor over one MCP client session, with any MCP
 * server. The specs the model sees are built from the server's tools/list answer (no local copy of
 * the descriptions). Per-run state is reset only on the harness's own tool servers, recognised by
 * identity — the executor was told it started that server itself (`ownServer`) and the server's
 * initialize result names the Stockroom server — never by a tool's name: a stranger's tool called
 * `reset_session_state` is just one of its tools, shown to the model and governed like the rest.
 * A server that ends the session (HTTP 404 for its id) gets a new one, as the first was settled, and
 * the request again (session-renewal.ts); the call's record says so.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { ExecutorError } from '../../harness';
import type { SessionRenewalReason, ToolCallContext, ToolExecutor, ToolResult, ToolSessionRenewal } from '../../harness';
import { isJsonObject, type JsonObject, type JsonValue } from '../../harness';
import type { FloatKeys } from '../../harness';
import type { ToolSpec } from '../../harness';
import type { ToolSource } from '../../governance';
import type { ToolHints } from '../../governance';
import { isConnectionLoss, LIVENESS_PROBE_MS, LossWatch, McpConnectionLostError } from './connection-lost';
import { normaliseCallToolResult, payloadChars } from './normalise-result';
import { callFailure, cancelledCall, connectionError, messageOf, replacedUnderfoot, type CallSite } from './call-failures';
import { OutputSchemas, schemaViolationResult } from './output-schema';
import { authorizationAdvice, isUnauthorized, protectedResourceOf } from './oauth/needs-authorization';
import { lookupOverMcp } from '../shared';
import { HIDDEN_META_KEY, APPROVAL_META_KEY, OPERATION_KEY_META_KEY, readWeaknessCapability, RESET_TOOL_NAME, STOCKROOM_SERVER_INFO, type WeaknessCapability } from '../shared';
import { CLOSE_TIMEOUT_MS, CONNECT_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './timeouts';
import { isSessionNotFound, McpSessionError, renewalDetail, sessionClient, sessionProblem, toolListChange, type SessionCheck } from './session-renewal';

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
  /** Whether the transport holds a session id, which its requests then carry (`Mcp-Session-Id`). */
  hasSession?: () => boolean;
  /**
   * A new, unstarted connection to the same server (same URL, headers, OAuth provider) for a new
   * session, when the server has ended this one. Absent where a session cannot be opened again in
   * place (a stdio child, an in-memory pair: the session ends with them). Its afterClose is not run:
   * the first connection's is, once, when the executor closes.
   */
  reopen?: () => McpConnection;
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
  /**
   * What every later session must show as the first did (the weakness flags the creator confirmed):
   * a session opened after the server ended the first is refused with this check's answer.
   */
  sessionCheck?: SessionCheck;
}

const NO_FLOAT_KEYS: FloatKeys = new Set();

/** A tool clients should not show a model: marked so by the server (our lookup and reset tools). */
function isHidden(tool: Tool): boolean {
  return tool._meta?.[HIDDEN_META_KEY] === true;
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

/**
 * A request that was not sent (again) because a new session could not be opened: `error` says why.
 * Kept apart so a write is not reported as sent when it was not.
 */
class NotSent {
  constructor(readonly error: Error) {}
}

/** Where in the executor's work a new session was opened, for the record. */
const DURING_RESET = "at the run's reset";
const DURING_LIST = 'while the tool list was read';

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
  /** Whether the server is known to be gone (every request then fails at once). */
  private readonly watch: LossWatch;
  /** The client of the current session (a new one for every session opened). */
  private client: Client;
  /** The connection of the current session (the first, or the last reopen()). */
  private session: McpConnection;
  /** How many times a new session replaced the first. */
  private generation = 0;
  private renewing: Promise<void> | null = null;
  /** Set when a new session lacked what the first confirmed: every later request fails with it. */
  private refused: McpSessionError | null = null;
  /** New sessions not yet told to a call (ToolCallContext.onSessionRenewed). */
  private readonly renewals: ToolSessionRenewal[] = [];
  /** Operation keys of the writes sent in the current session (what its lookup can answer for). */
  private readonly sessionWrites = new Set<string>();
  /** The first session's server name: a new session must be with the same server. */
  private readonly serverName: string | undefined;
  private readonly markLost = (detail: string, cause?: unknown) => this.watch.mark(detail, cause);

  private constructor(
    client: Client,
    private readonly connection: McpConnection,
    private readonly options: McpExecutorOptions,
  ) {
    this.client = client;
    this.session = connection;
    this.transport = connection.label;
    this.floatKeys = options.floatKeys ?? NO_FLOAT_KEYS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.serverId = options.serverId ?? connection.target;
    this.ownServer = options.ownServer === true;
    this.serverName = client.getServerVersion()?.name;
    this.watch = new LossWatch(
      (detail, cause) => new McpConnectionLostError(this.transport, this.serverId, connection.target, detail, { cause }),
      () => this.closed,
    );
    this.attach(client);
  }

  /** Who fails a call, for its words (call-failures.ts). */
  private get site(): CallSite {
    return { transport: this.transport, serverId: this.serverId, target: this.connection.target, floatKeys: this.floatKeys, requestTimeoutMs: this.requestTimeoutMs };
  }

  /** Listens to `client` for as long as it is the current session's. */
  private attach(client: Client): void {
    // A server that changes its tools says so; the next listSpecs() asks again.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (client === this.client) this.specs = null;
    });
    // A stdio child that exits closes the connection; an HTTP server that dies breaks its streams
    // (the SDK reports it as a transport error and leaves the request waiting for its timeout).
    client.onclose = () => {
      if (client === this.client) this.markLost('the connection closed');
    };
    client.onerror = (err) => {
      if (client === this.client) this.watch.probe(err, () => client.ping({ timeout: LIVENESS_PROBE_MS }));
    };
  }

  /**
   * Opens one client session over `connection` (held for many runs until close()). A server that
   * cannot be reached fails with an ExecutorError naming the transport and target.
   */
  static async connect(connection: McpConnection, options: McpExecutorOptions = {}): Promise<McpToolExecutor> {
    const client = sessionClient(options.requestWeaknesses);
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

  /** Reads the whole tool list; `renewable`: a session the server ended may be replaced to read it. */
  private async fetchSpecs(renewable = true): Promise<ToolSpec[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request(
        'tools/list',
        () => this.client.listTools(cursor ? { cursor } : undefined, { timeout: this.requestTimeoutMs }),
        renewable ? DURING_LIST : null,
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
    try {
      return await this.callInSession(name, args, context);
    } finally {
      // Whatever became of the call, the sessions opened for it (or since the last call) are told to it.
      for (const renewal of this.renewals.splice(0)) context?.onSessionRenewed?.(renewal);
    }
  }

  private async callInSession(name: string, args: JsonObject, context?: ToolCallContext): Promise<ToolResult> {
    const operationKey = context?.operationKey;
    if (this.refused) throw this.refused;
    if (this.watch.lost && !this.reopenable()) return callFailure(this.site, name, this.watch.lost, operationKey, this.markLost);
    const generation = this.generation;
    try {
      // The server stopped answering earlier: it may answer again, in a new session (nothing is sent before).
      if (this.watch.lost) await this.renewOrNotSent(this.generation, 'connection_lost', `before tools/call ${name}`);
      // A result is checked against its tool's declared outputSchema: the schemas must be known first.
      if (!this.listed) await this.listSpecs().catch(() => undefined);
      // client.request, not client.callTool: the output schema is checked here (output-schema.ts).
      // Sent again as it is (the same operation key) in a new session when the server ended this one.
      const send = () => {
        if (operationKey !== undefined) this.sessionWrites.add(operationKey);
        return this.watch.whileConnected(this.client.request(
          { method: 'tools/call', params: {
            name,
            arguments: args,
            ...(operationKey || context?.approval
              ? {
                  _meta: {
                    ...(operationKey ? { [OPERATION_KEY_META_KEY]: operationKey } : {}),
                    ...(context?.approval ? { [APPROVAL_META_KEY]: context.approval.id } : {}),
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
      };
      const result = await this.inSession(`tools/call ${name}`, `when tools/call ${name} was sent`, send);
      this.expectListChange();
      const violation = this.outputSchemas.violation(name, result as CallToolResult);
      if (violation !== null) return schemaViolationResult(violation, this.floatKeys);
      return normaliseCallToolResult(result as CallToolResult, this.floatKeys);
    } catch (err) {
      // Not sent (again): a new session could not be opened. Not a tool result; a write's journal records it unknown.
      if (err instanceof NotSent) throw err.error;
      if (err instanceof McpSessionError) throw err;
      if (context?.signal?.aborted && !(err instanceof McpConnectionLostError)) return cancelledCall(this.site, name, context.signal, operationKey, err);
      if (generation !== this.generation && isConnectionLoss(err)) throw replacedUnderfoot(this.site, `tools/call ${name}`, err, operationKey);
      return callFailure(this.site, name, err, operationKey, this.markLost);
    }
  }

  /**
   * Sends a request in the current session; when the server answers 404 for the session it carried
   * (the server ended it), opens a new session and sends it once more. A second 404 in a row is a
   * McpSessionError naming the server. `during` says, for the record, what the session was opened for.
   */
  private async inSession<T>(what: string, during: string, send: () => Promise<T>): Promise<T> {
    const generation = this.generation;
    const hadSession = this.session.hasSession?.() ?? false;
    try {
      return await send();
    } catch (err) {
      if (!this.reopenable() || !isSessionNotFound(err, hadSession)) throw err;
      await this.renewOrNotSent(generation, 'session_ended', during);
      const again = this.session.hasSession?.() ?? false;
      try {
        return await send();
      } catch (second) {
        if (isSessionNotFound(second, again)) {
          throw new McpSessionError(this.transport, this.serverId, this.connection.target, `${what} was answered HTTP 404 in the new session too`, { cause: second });
        }
        throw second;
      }
    }
  }

  private reopenable(): boolean {
    return this.connection.reopen !== undefined && !this.closed;
  }

  /** A new session unless one was opened since `generation` failed (one at a time); its failure, as NotSent. */
  private async renewOrNotSent(generation: number, reason: SessionRenewalReason, during: string): Promise<void> {
    if (this.generation === generation) {
      this.renewing ??= this.openNewSession(reason, during).finally(() => {
        this.renewing = null;
      });
    }
    try {
      await this.renewing;
    } catch (err) {
      throw new NotSent(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /**
   * Opens a new session as the first was opened (the same connection again, the same capabilities),
   * checks it is with the same server and shows what the first confirmed (sessionCheck), swaps it in,
   * re-reads the tool list, and notes it for the next call's record. A session that lacks what the
   * first confirmed is ended and the executor refuses every later request.
   */
  private async openNewSession(reason: SessionRenewalReason, during: string): Promise<void> {
    const connection = this.connection.reopen!();
    const client = sessionClient(this.options.requestWeaknesses);
    try {
      await client.connect(connection.transport, { timeout: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS });
    } catch (err) {
      await withinMs(client.close().catch(() => undefined), CLOSE_TIMEOUT_MS);
      if (isConnectionLoss(err)) throw this.markLost(`a new session could not be opened (${messageOf(err)})`, err);
      throw new McpSessionError(this.transport, this.serverId, this.connection.target, `a new session could not be opened: ${messageOf(err)}`, { cause: err });
    }
    const problem = sessionProblem(client, connection.target, this.serverName, this.options.sessionCheck);
    if (problem !== null) {
      if (connection.beforeClose) await withinMs(connection.beforeClose().catch(() => undefined), CLOSE_TIMEOUT_MS);
      await withinMs(client.close().catch(() => undefined), CLOSE_TIMEOUT_MS);
      this.refused = new McpSessionError(this.transport, this.serverId, this.connection.target, problem);
      throw this.refused;
    }
    const [old, oldSession, before] = [this.client, this.session, this.tools.filter((t) => !isHidden(t))];
    this.client = client;
    this.session = connection;
    this.generation += 1;
    this.attach(client);
    this.watch.lost = null;
    this.sessionWrites.clear();
    // The old session's transport is stopped (and its stream's retries); after a loss it may still be
    // open on the server, so it is ended there too.
    void (async () => {
      if (reason === 'connection_lost' && oldSession.beforeClose) await withinMs(oldSession.beforeClose().catch(() => undefined), CLOSE_TIMEOUT_MS);
      await withinMs(old.close().catch(() => undefined), CLOSE_TIMEOUT_MS);
    })();
    // The tool list of the new session (its outputSchemas check the results); a 404 here is not renewed again.
    this.specs = this.fetchSpecs(false);
    try {
      await this.specs;
    } catch (err) {
      this.specs = null;
      throw isSessionNotFound(err instanceof ExecutorError ? err.cause : err, true)
        ? new McpSessionError(this.transport, this.serverId, this.connection.target, 'tools/list was answered HTTP 404 in the new session too', { cause: err })
        : err;
    }
    const toolList = toolListChange(before, this.tools.filter((t) => !isHidden(t)));
    this.renewals.push({ server: this.serverId, reason, detail: renewalDetail(reason, during, toolList, this.options.sessionCheck ? this.serverWeaknesses() : undefined) });
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
   * Asks the server whether a write was applied under `operationKey` (the hidden lookup tool). Only
   * the session a write was sent in can say: once the server ended a session, a new one knows nothing
   * of what the old one applied, so the question is refused (the write stays unknown) rather than
   * answered "absent". Never opens a new session for itself.
   */
  lookupOperation(tool: string, operationKey: string): Promise<JsonValue | null> {
    const what = `lookup_operation ${operationKey}`;
    if (this.generation > 0 && !this.sessionWrites.has(operationKey)) {
      return Promise.reject(new ExecutorError(this.transport, `${what}: not sent in the current MCP session (the server ended an earlier one), so this session cannot say whether it was applied`));
    }
    return this.request(what, () => lookupOverMcp(this.client, tool, operationKey, this.requestTimeoutMs), null);
  }

  /**
   * One request that is not a tool call. `during` (for the record) lets a new session be opened for
   * it when the server ended the current one or came back after a loss; null sends it only in the
   * current session.
   */
  private async request<T>(what: string, send: () => Promise<T>, during: string | null): Promise<T> {
    if (this.closed) throw new ExecutorError(this.transport, `${what}: the ${this.transport} executor is closed`);
    if (this.refused) throw this.refused;
    const generation = this.generation;
    try {
      if (during === null) return await this.watch.whileConnected(send());
      if (this.watch.lost && this.reopenable()) await this.renewOrNotSent(this.generation, 'connection_lost', during);
      return await this.inSession(what, during, () => this.watch.whileConnected(send()));
    } catch (err) {
      if (err instanceof NotSent) throw err.error;
      if (err instanceof McpConnectionLostError || err instanceof McpSessionError) throw err;
      if (generation !== this.generation && isConnectionLoss(err)) throw replacedUnderfoot(this.site, what, err);
      if (isConnectionLoss(err)) throw this.markLost(`${what}: connection lost (${messageOf(err)})`, err);
      throw connectionError(this.site, what, err);
    }
  }

  /** Resets per-run state through our own server's private tool; a no-op with any other server. */
  async reset(): Promise<void> {
    // A session opened after the previous run's last call belongs to no call of this run.
    this.renewals.length = 0;
    if (!(await this.offersReset())) return;
    const result = await this.request(
      'reset',
      () => this.client.callTool({ name: RESET_TOOL_NAME, arguments: {} }, CallToolResultSchema, { timeout: this.requestTimeoutMs }),
      DURING_RESET,
    );
    if (result.isError === true) {
      throw new ExecutorError(this.transport, `reset refused by the server over ${this.transport} (${this.connection.target})`);
    }
  }

  /** Ends the session (an HTTP session is terminated, a stdio child exits); safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.session.beforeClose) await withinMs(this.session.beforeClose().catch(() => undefined), CLOSE_TIMEOUT_MS);
    await withinMs(this.client.close().catch(() => undefined), CLOSE_TIMEOUT_MS);
    if (this.connection.afterClose) await withinMs(this.connection.afterClose().catch(() => undefined), CLOSE_TIMEOUT_MS);
  }
}

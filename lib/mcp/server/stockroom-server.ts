/**
 * The Stockroom inventory MCP server: the five tools of one dataset under a set of weakness flags.
 * Built on the low-level `Server` rather than `McpServer.registerTool` because McpServer derives
 * each tool's JSON schema from zod in its own way, and the model must see exactly the schemas of
 * SPEC.md §6.3 (token counts are taken over their serialisation).
 *
 * What outside clients get differs from what the harness's own servers get: the private reset tool
 * is offered only when asked for (`offerReset`), and writes pass a WriteGate (refused, or governed
 * by the policy file) unless the harness, which governs its own runs, asked for them open. The
 * server states its active weakness flags in its initialize result so a client can confirm them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { WeaknessFlag } from '../../harness';
import type { ToolResult } from '../../harness';
import type { JsonValue } from '../../harness';
import { StockroomEnvironment } from '../../stockroom';
import type { Dataset, ToolName } from '../../stockroom';
import { TOOL_NAMES } from '../../stockroom';
import {
  encodeToolValue,
  HIDDEN_META_KEY,
  APPROVAL_META_KEY,
  OPERATION_KEY_META_KEY,
  RESET_TOOL_NAME,
  STOCKROOM_SERVER_INFO,
  weaknessCapability,
} from '../shared';
import { answerLookup, LOOKUP_TOOL, LOOKUP_TOOL_NAME } from '../shared';
import { annotationsOf, TOOL_METADATA } from './tool-metadata';
import { describeIssues, toolInputSchemas } from './tool-input-schemas';
import { OPEN_WRITES, type WriteGate } from './write-gate';
import { schemaDigest } from '../../governance';
import { APPROVAL_REQUEST_META_KEY, APPROVAL_STATUS_TOOL, APPROVAL_STATUS_TOOL_NAME } from './mcp-approvals';
import { isJsonObject } from '../../harness';
import { callConformanceTool, CONFORMANCE_TOOLS, isConformanceTool } from './conformance-tools';
import { ASKING_TOOLS, callAskingTool, CONFORMANCE_CAPABILITIES, isAskingTool, serveConformanceFixtures } from './conformance-fixtures';
import { serveResources, type ResourceSource } from './resources';
import { servePrompts } from './prompts';
import { serveCompletion } from './completion';

export interface StockroomServerOptions {
  dataset: Dataset;
  /** Runs, suites and golden sets as resources (with the explain_run prompt and completion), scoped to the caller (the dashboard's /api/mcp). Absent: none. */
  resources?: ResourceSource;
  /** Flags that change the tools: descriptions, payloads, legacy-shard failures. */
  weaknesses: readonly WeaknessFlag[];
  /**
   * An environment to serve instead of a fresh one. A stateless HTTP endpoint builds a server per
   * request and passes the caller's environment so per-run state outlives the request.
   */
  environment?: StockroomEnvironment;
  /** Offer the hidden reset tool. Only the harness's own servers do: it wipes the environment. */
  offerReset?: boolean;
  /** How writes are let through; open (the harness governs) when omitted. */
  writes?: WriteGate;
  /** Whether a client may choose its own weakness flags (advertised; the transport applies them). */
  perSessionWeaknesses?: boolean;
  /** Where unexpected handler failures are reported (stdio servers must never write to stdout). */
  log?: (message: string) => void;
  /** Also serve the conformance suite's test tools (`mcp-server --conformance-tools`; never for a model). */
  conformanceTools?: boolean;
  /**
   * Advertise `logging` and send log messages (writes applied or refused). Off for /api/mcp's
   * stateless answers (a request without a session): no stream a log message could use.
   */
  logging?: boolean;
  /**
   * Offer `resources/subscribe` (runs followed as they progress): only where the transport keeps a
   * session with a stream to send `notifications/resources/updated` on, and `resources` can watch.
   */
  subscriptions?: boolean;
}

const RESET_TOOL: Tool = {
  name: RESET_TOOL_NAME,
  title: 'Reset session state',
  description: 'Clear per-run state (restock ledger, legacy-shard attempt counters). Not for models.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { title: 'Reset session state', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  _meta: { [HIDDEN_META_KEY]: true },
};

function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

function encodeResult(result: ToolResult): CallToolResult {
  return encodeToolValue(result.content, result.isError);
}

/** Builds an unconnected server; connect it to one transport (a Server serves one connection). */
export function createStockroomServer(options: StockroomServerOptions): Server {
  const weaknesses = [...options.weaknesses].sort();
  const environment = options.environment ?? new StockroomEnvironment(options.dataset, weaknesses);
  const schemas = toolInputSchemas(weaknesses);
  const writes = options.writes ?? OPEN_WRITES;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));

  const logging = options.logging !== false;
  const subscriptions = options.subscriptions === true && options.resources?.watchRun !== undefined;
  const server = new Server(STOCKROOM_SERVER_INFO, {
    capabilities: {
      tools: {},
      ...(logging ? { logging: {} } : {}),
      ...(options.resources
        ? { resources: subscriptions ? { subscribe: true } : {}, prompts: {}, completions: {} }
        : options.conformanceTools
          ? CONFORMANCE_CAPABILITIES
          : {}),
      experimental: weaknessCapability(weaknesses, options.perSessionWeaknesses === true),
    },
  });
  // The conformance suite's own resources and prompts, where the server has none of its own.
  if (options.conformanceTools && !options.resources) serveConformanceFixtures(server);
  if (options.resources) {
    serveResources(server, options.resources, { subscriptions });
    servePrompts(server, options.resources);
    serveCompletion(server, options.resources);
  }
  /** Tells the client what became of a write (at the level it set; never the arguments' secrets: tool and outcome only). */
  const logWrite = (name: string, result: ToolResult, sessionId: string | undefined): void => {
    if (!logging) return;
    const data = result.isError
      ? { event: 'write_refused', tool: name, error: result.errorCode, message: isJsonObject(result.content) && typeof result.content.message === 'string' ? result.content.message : null }
      : { event: 'write_applied', tool: name };
    void server.sendLoggingMessage({ level: result.isError ? 'warning' : 'info', logger: 'stockroom', data }, sessionId).catch(() => undefined);
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...environment.listSpecs().map((spec): Tool => {
        const meta = isToolName(spec.name) ? TOOL_METADATA[spec.name] : undefined;
        return {
          name: spec.name,
          description: spec.description,
          inputSchema: spec.inputSchema as Tool['inputSchema'],
          ...(meta ? { title: meta.title, annotations: annotationsOf(meta), outputSchema: meta.outputSchema } : {}),
        };
      }),
      ...(options.offerReset ? [RESET_TOOL] : []),
      // Read-only and limited to this caller's own environment, so every client may reconcile with it.
      LOOKUP_TOOL,
      ...(writes.approvalStatus ? [APPROVAL_STATUS_TOOL] : []),
      ...(options.conformanceTools ? [...CONFORMANCE_TOOLS, ...ASKING_TOOLS] : []),
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as JsonValue;
    if (options.conformanceTools && isConformanceTool(name)) return callConformanceTool(server, name, request.params._meta?.progressToken);
    if (options.conformanceTools && isAskingTool(name)) return callAskingTool(server, name, isJsonObject(args) ? args : {});
    if (name === RESET_TOOL_NAME && options.offerReset) {
      environment.reset();
      return encodeToolValue({ reset: true }, false);
    }
    if (name === LOOKUP_TOOL_NAME) return answerLookup(environment, args);
    if (name === APPROVAL_STATUS_TOOL_NAME && writes.approvalStatus) {
      return encodeResult(await writes.approvalStatus(isJsonObject(args) ? (args.request_id ?? null) : null));
    }
    if (isToolName(name)) {
      const parsed = schemas[name].safeParse(args);
      if (!parsed.success) {
        return encodeToolValue({ error: 'bad_arguments', message: `bad arguments: ${describeIssues(parsed.error)}` }, true);
      }
    }
    // Unknown names go to the environment too, so the refusal reads exactly as on the local path.
    const metaKey = request.params._meta?.[OPERATION_KEY_META_KEY];
    const operationKey = typeof metaKey === 'string' ? metaKey : undefined;
    // An approval id is taken only by the harness's own servers (offerReset): they sit behind the
    // harness's policy and journal, which set it for the one call a reviewer approved.
    const approvalId = options.offerReset ? request.params._meta?.[APPROVAL_META_KEY] : undefined;
    const harnessApproval = typeof approvalId === 'string' ? approvalId : undefined;
    const metaApproval = request.params._meta?.[APPROVAL_REQUEST_META_KEY];
    const approvalRequestId = typeof metaApproval === 'string' ? metaApproval : undefined;
    // The ledger records a reviewer's sign-off: the harness's (above) or this server's own approval queue's.
    const run = async (key: string | undefined, gateApproval?: string): Promise<ToolResult> => {
      const id = gateApproval ?? harnessApproval;
      return environment.call(name, args, key !== undefined || id !== undefined ? { ...(key !== undefined ? { operationKey: key } : {}), ...(id !== undefined ? { approval: { id } } : {}) } : undefined);
    };
    try {
      if (isToolName(name) && writes.isWrite(name, TOOL_METADATA[name].readOnly)) {
        const spec = environment.listSpecs().find((s) => s.name === name);
        const gated = {
          name,
          args,
          schemaDigest: spec ? schemaDigest(spec) : '',
          ...(operationKey !== undefined ? { operationKey } : {}),
          ...(approvalRequestId !== undefined ? { approvalRequestId } : {}),
        };
        const outcome = await writes.write(gated, run);
        writes.observe?.(name, outcome, true);
        logWrite(name, outcome, extra.sessionId);
        return encodeResult(outcome);
      }
      const result = await run(operationKey);
      writes.observe?.(name, result, false);
      return encodeResult(result);
    } catch (err) {
      log(`stockroom MCP server: tool ${name} failed unexpectedly: ${err instanceof Error ? err.stack : String(err)}`);
      return encodeToolValue({ error: 'internal_error', message: `tool ${name} failed unexpectedly` }, true);
    }
  });

  return server;
}

/**
 * The Stockroom inventory MCP server: the five tools of one dataset under a set of weakness flags,
 * plus the hidden reset tool. Built on the low-level `Server` rather than `McpServer.registerTool`
 * because McpServer derives each tool's JSON schema from zod in its own way, and the model must see
 * exactly the schemas of SPEC.md §6.3 (token counts are taken over their serialisation).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { WeaknessFlag } from '../harness/config';
import type { JsonValue } from '../harness/json';
import { StockroomEnvironment } from '../stockroom/environment';
import type { Dataset, ToolName } from '../stockroom/dataset/types';
import { TOOL_NAMES } from '../stockroom/dataset/types';
import {
  encodeToolValue,
  HIDDEN_META_KEY,
  OPERATION_KEY_META_KEY,
  RESET_TOOL_NAME,
  STOCKROOM_SERVER_INFO,
} from './protocol';
import { answerLookup, LOOKUP_TOOL, LOOKUP_TOOL_NAME } from './operation-lookup';
import { describeIssues, toolInputSchemas } from './tool-input-schemas';

export interface StockroomServerOptions {
  dataset: Dataset;
  /** Flags that change the tools: descriptions, payloads, legacy-shard failures. */
  weaknesses: readonly WeaknessFlag[];
  /**
   * An environment to serve instead of a fresh one. A stateless HTTP endpoint builds a server per
   * request and passes a shared environment so per-run state outlives the request.
   */
  environment?: StockroomEnvironment;
  /** Where unexpected handler failures are reported (stdio servers must never write to stdout). */
  log?: (message: string) => void;
}

const RESET_TOOL: Tool = {
  name: RESET_TOOL_NAME,
  description: 'Clear per-run state (restock ledger, legacy-shard attempt counters). Not for models.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  _meta: { [HIDDEN_META_KEY]: true },
};

function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** Builds an unconnected server; connect it to one transport (a Server serves one connection). */
export function createStockroomServer(options: StockroomServerOptions): Server {
  const weaknesses = [...options.weaknesses].sort();
  const environment = options.environment ?? new StockroomEnvironment(options.dataset, weaknesses);
  const schemas = toolInputSchemas(weaknesses);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));

  const server = new Server(STOCKROOM_SERVER_INFO, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...environment.listSpecs().map(
        (spec): Tool => ({ name: spec.name, description: spec.description, inputSchema: spec.inputSchema as Tool['inputSchema'] }),
      ),
      RESET_TOOL,
      LOOKUP_TOOL,
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as JsonValue;
    if (name === RESET_TOOL_NAME) {
      environment.reset();
      return encodeToolValue({ reset: true }, false);
    }
    if (name === LOOKUP_TOOL_NAME) return answerLookup(environment, args);
    if (isToolName(name)) {
      const parsed = schemas[name].safeParse(args);
      if (!parsed.success) {
        return encodeToolValue({ error: 'bad_arguments', message: `bad arguments: ${describeIssues(parsed.error)}` }, true);
      }
    }
    // Unknown names go to the environment too, so the refusal reads exactly as on the local path.
    const operationKey = request.params._meta?.[OPERATION_KEY_META_KEY];
    try {
      const result = environment.call(name, args, typeof operationKey === 'string' ? { operationKey } : undefined);
      return encodeToolValue(result.content, result.isError);
    } catch (err) {
      log(`stockroom MCP server: tool ${name} failed unexpectedly: ${err instanceof Error ? err.stack : String(err)}`);
      return encodeToolValue({ error: 'internal_error', message: `tool ${name} failed unexpectedly` }, true);
    }
  });

  return server;
}

/**
 * The stateless, web-standard MCP endpoint behind the dashboard's /api/mcp route: each POST gets a
 * fresh server and transport (no session survives a request). Per-run state (restock ledger,
 * legacy shard) lives in an environment of the caller's own — keyed by principal and weakness
 * flags — so no caller sees or wipes another's. The private reset tool is not offered here, and
 * writes pass the write gate the route hands in (refused, or governed by the policy file).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '../../harness';
import { safeJsonParse } from '../../harness';
import type { Dataset } from '../../stockroom';
import { StockroomEnvironment } from '../../stockroom';
import { jsonRpcShapeProblem } from './json-rpc-shape';
import { connectGuarded } from './request-guard';
import { createStockroomServer } from './stockroom-server';
import { parseWeaknessesParam } from './weaknesses-param';
import type { WriteGate } from './write-gate';
import type { ResourceSource } from './resources';
import { CallerTaints } from './caller-taint';

/** Callers' environments kept at once; the least recently used is dropped beyond it. */
export const MAX_CALLER_ENVIRONMENTS = 200;
/** Largest request body accepted. */
export const MAX_WEB_BODY_BYTES = 1_000_000;

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Reads the `weaknesses` query parameter as a 400 response naming the parameter when it is bad. */
export function weaknessesOrResponse(url: URL): { ok: true; weaknesses: WeaknessFlag[] } | { ok: false; response: Response } {
  const parsed = parseWeaknessesParam(url);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    response: jsonResponse(400, { error: 'invalid_query_parameter', parameter: 'weaknesses', message: parsed.message, allowed: [...WEAKNESS_FLAGS] }),
  };
}

/** Who is calling, as far as the endpoint cares: a stable key for their state, and their write gate. */
export interface EndpointCaller {
  /** Separates callers' environments (a user id, or the token's principal). */
  key: string;
  writes: WriteGate;
  /** The caller's runs, suites and golden sets as resources (scoped to their tenant). */
  resources?: ResourceSource;
}

/** Serves MCP over web Requests for one dataset. */
export class StatelessMcpEndpoint {
  private readonly environments = new Map<string, StockroomEnvironment>();
  /** Each caller's taint (kept like their environments; the route hands a caller's view to their write gate). */
  readonly taints = new CallerTaints(MAX_CALLER_ENVIRONMENTS);

  constructor(private readonly loadDataset: () => Dataset) {}

  /** The caller's own environment for these flags (least recently used ones are dropped). */
  environmentFor(dataset: Dataset, weaknesses: readonly WeaknessFlag[], callerKey: string): StockroomEnvironment {
    const key = `${callerKey}\n${dataset.dir}\n${weaknesses.join(',')}`;
    let environment = this.environments.get(key);
    if (environment) {
      this.environments.delete(key);
    } else {
      environment = new StockroomEnvironment(dataset, weaknesses);
      if (this.environments.size >= MAX_CALLER_ENVIRONMENTS) {
        const first = this.environments.keys().next();
        if (!first.done) this.environments.delete(first.value);
      }
    }
    this.environments.set(key, environment);
    return environment;
  }

  /** One JSON-RPC POST: a fresh server and transport, closed once the JSON response is ready. */
  async post(request: Request, caller: EndpointCaller): Promise<Response> {
    const param = weaknessesOrResponse(new URL(request.url));
    if (!param.ok) return param.response;
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_WEB_BODY_BYTES) return jsonRpcError(413, -32600, `Request body over ${MAX_WEB_BODY_BYTES} bytes`);
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_WEB_BODY_BYTES) return jsonRpcError(413, -32600, `Request body over ${MAX_WEB_BODY_BYTES} bytes`);
    const body = safeJsonParse(text);
    if (!body.ok) return jsonRpcError(400, -32700, `Parse error: ${body.error}`);
    const shape = jsonRpcShapeProblem(body.value);
    if (shape !== null) return jsonRpcError(400, -32600, `Invalid Request: ${shape}`);
    let dataset: Dataset;
    try {
      dataset = this.loadDataset();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return jsonRpcError(500, -32603, `dataset unavailable: ${message}`);
    }
    const server = createStockroomServer({
      dataset,
      weaknesses: param.weaknesses,
      environment: this.environmentFor(dataset, param.weaknesses, caller.key),
      writes: caller.writes,
      ...(caller.resources ? { resources: caller.resources } : {}),
      perSessionWeaknesses: true,
      // Stateless JSON answers: no stream could carry a log message, so none is advertised.
      logging: false,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await connectGuarded(server, transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body.value });
    } finally {
      await transport.close();
      await server.close();
    }
  }

  /** GET (a notification stream) and DELETE (end a session) mean nothing without sessions. */
  methodNotAllowed(): Response {
    return jsonResponse(
      405,
      { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this endpoint is stateless; use POST' }, id: null },
      { allow: 'POST' },
    );
  }
}

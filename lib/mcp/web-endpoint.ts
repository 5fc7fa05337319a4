/**
 * The stateless, web-standard MCP endpoint behind the dashboard's /api/mcp route: each POST gets a
 * fresh server and transport (no session survives a request), serving an environment shared per
 * weakness set so a run's state (restock ledger, legacy shard) outlives the request. Clients share
 * that state; per-run isolation comes from the hidden reset tool, as over every transport.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '../harness/config';
import type { Dataset } from '../stockroom/dataset/types';
import { StockroomEnvironment } from '../stockroom/environment';
import { createStockroomServer } from './stockroom-server';

const WeaknessesParamSchema = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(WEAKNESS_FLAGS)));

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * Reads the `weaknesses` query parameter (comma-separated; absent or empty means none). A bad value
 * is a 400 response naming the parameter and the allowed values.
 */
export function parseWeaknessesParam(url: URL): { ok: true; weaknesses: WeaknessFlag[] } | { ok: false; response: Response } {
  const parsed = WeaknessesParamSchema.safeParse(url.searchParams.get('weaknesses') ?? '');
  if (parsed.success) return { ok: true, weaknesses: [...new Set(parsed.data)].sort() };
  const given = url.searchParams.get('weaknesses');
  return {
    ok: false,
    response: jsonResponse(400, {
      error: 'invalid_query_parameter',
      parameter: 'weaknesses',
      message: `query parameter 'weaknesses' must be a comma-separated list of ${WEAKNESS_FLAGS.join(', ')}; got '${given}'`,
      allowed: [...WEAKNESS_FLAGS],
    }),
  };
}

/** Serves MCP over web Requests for one dataset. */
export class StatelessMcpEndpoint {
  private readonly environments = new Map<string, StockroomEnvironment>();

  constructor(private readonly loadDataset: () => Dataset) {}

  private environmentFor(dataset: Dataset, weaknesses: WeaknessFlag[]): StockroomEnvironment {
    const key = `${dataset.dir}\n${weaknesses.join(',')}`;
    let environment = this.environments.get(key);
    if (!environment) {
      environment = new StockroomEnvironment(dataset, weaknesses);
      this.environments.set(key, environment);
    }
    return environment;
  }

  /** One JSON-RPC POST: a fresh server and transport, closed once the JSON response is ready. */
  async post(request: Request): Promise<Response> {
    const param = parseWeaknessesParam(new URL(request.url));
    if (!param.ok) return param.response;
    let dataset: Dataset;
    try {
      dataset = this.loadDataset();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return jsonResponse(500, { jsonrpc: '2.0', error: { code: -32603, message: `dataset unavailable: ${message}` }, id: null });
    }
    const server = createStockroomServer({
      dataset,
      weaknesses: param.weaknesses,
      environment: this.environmentFor(dataset, param.weaknesses),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
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

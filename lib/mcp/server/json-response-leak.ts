/**
 * Works around a leak in @modelcontextprotocol/sdk 1.32's streamable HTTP server transport in
 * JSON-response mode: every POST adds an entry to the transport's private `_streamMapping` that is
 * never removed once its JSON response is resolved (SSE mode calls `cleanup()`; JSON mode does
 * not), so one long session grew by ~6 KiB per request (issue 11 §3). After a POST settles, the
 * entries no pending request points at are removed. Feature-detected: if the private fields are
 * gone (a fixed SDK), this does nothing.
 */
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

interface TransportInternals {
  _streamMapping?: Map<string, { resolveJson?: unknown }>;
  _requestToStreamMapping?: Map<unknown, string>;
}

/**
 * Drops settled JSON-response stream entries of `transport` (the Node one wraps the web-standard
 * one, where they are kept); returns how many were dropped.
 */
export function releaseSettledJsonStreams(transport: StreamableHTTPServerTransport | WebStandardStreamableHTTPServerTransport): number {
  const wrapped = (transport as unknown as { _webStandardTransport?: TransportInternals })._webStandardTransport;
  const inner = wrapped ?? (transport as unknown as TransportInternals);
  const streams = inner?._streamMapping;
  const pending = inner?._requestToStreamMapping;
  if (!(streams instanceof Map) || !(pending instanceof Map)) return 0;
  const live = new Set(pending.values());
  let dropped = 0;
  for (const [id, stream] of streams) {
    if (stream.resolveJson !== undefined && !live.has(id)) {
      streams.delete(id);
      dropped++;
    }
  }
  return dropped;
}

/**
 * A third-party MCP server for tests, run as a real child process (stdio, or streamable HTTP on
 * 127.0.0.1 with its URL printed as the first stdout line). It is deliberately someone else's:
 * built on the SDK's McpServer, it lists a destructive `reset_session_state` of its own, can crash
 * mid-call, answers with every content kind, adds a tool while a session runs, and reports
 * progress on a slow call that notices cancellation, declares an output schema it does not always keep
 * (`weather`), and can add a tool announcing it only later (`grow_quietly`). Nothing here is the
 * harness's code.
 *
 *   node --import tsx lib/mcp/testing/stranger-server.ts [--http] [--name NAME]
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** About 30 KB: a real 101×101 PNG of noise (noise does not compress), the same every time. */
export const IMAGE_BYTES = 30 * 1024;
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])));
  return Buffer.concat([len, Buffer.from(type, 'ascii'), data, crc]);
}
const png = (): string => {
  const side = 101;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc(side * (side * 3 + 1));
  for (let i = 0; i < rows.length; i += 32) createHash('sha256').update(String(i)).digest().copy(rows, i);
  for (let r = 0; r < side; r++) rows[r * (side * 3 + 1)] = 0; // filter byte of each row: none
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]).toString('base64');
};

/** Shared across sessions of one process, so a test can ask how often it was wiped. */
const state = { wipes: 0, cancelled: 0 };

function build(name: string): McpServer {
  const server = new McpServer({ name, version: '9.9.9' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool(
    'reset_session_state',
    { description: 'DESTRUCTIVE: wipes all user data', inputSchema: {}, annotations: { destructiveHint: true, readOnlyHint: false } },
    () => {
      state.wipes += 1;
      return { content: [{ type: 'text', text: 'all user data wiped' }] };
    },
  );
  const wipeCount = server.registerTool('wipe_count', { description: 'How often user data was wiped', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: 'text', text: JSON.stringify(state) }],
  }));
  server.registerTool('env', { description: 'The names of the variables this process was given, and the value of SHELF_TOKEN', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: 'text', text: JSON.stringify({ names: Object.keys(process.env).sort(), shelfToken: process.env.SHELF_TOKEN ?? null }) }],
  }));
  server.registerTool('client_capabilities', { description: 'The capabilities the client sent in its handshake', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: 'text', text: JSON.stringify(server.server.getClientCapabilities() ?? null) }],
  }));
  server.registerTool('die', { description: 'Crashes the server process mid-call', inputSchema: {} }, () => {
    setTimeout(() => process.exit(3), 50);
    return new Promise(() => {});
  });
  server.registerTool('snapshot', { description: 'A 30 KB image of the shelf', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({
    content: [{ type: 'image', data: png(), mimeType: 'image/png' }],
  }));
  server.registerTool('everything_kinds', { description: 'Text with an image, audio, a link and an embedded resource', inputSchema: {} }, () => ({
    content: [
      { type: 'text', text: 'shelf B-12 report' },
      { type: 'image', data: png(), mimeType: 'image/png' },
      { type: 'audio', data: Buffer.alloc(2048, 1).toString('base64'), mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///reports/b12.pdf', name: 'b12.pdf', mimeType: 'application/pdf' },
      { type: 'resource', resource: { uri: 'memo://shelf/b12', mimeType: 'application/json', text: JSON.stringify({ shelf: 'B-12', bins: [1, 2] }) } },
    ],
  }));
  server.registerTool('grow', { description: 'Adds the tool late_tool and changes the schema of wipe_count', inputSchema: {} }, () => {
    server.registerTool('late_tool', { description: 'A tool added during the session', inputSchema: { note: z.string() } }, ({ note }) => ({
      content: [{ type: 'text', text: `late tool got ${note}` }],
    }));
    wipeCount.update({ paramsSchema: { verbose: z.boolean().optional() } });
    return { content: [{ type: 'text', text: 'added late_tool' }] };
  });
  server.registerTool(
    'slow',
    { description: 'Reports progress every 100 ms until cancelled (or 10 s)', inputSchema: { steps: z.number().int().optional() } },
    async ({ steps }, extra) => {
      const total = steps ?? 100;
      for (let i = 1; i <= total; i++) {
        if (extra.signal.aborted) {
          state.cancelled += 1;
          return { content: [{ type: 'text', text: 'cancelled' }], isError: true };
        }
        const token = extra._meta?.progressToken;
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total, message: `step ${i}` } });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { content: [{ type: 'text', text: `done after ${total} steps` }] };
    },
  );
  server.registerTool(
    'weather',
    {
      description: 'The weather on the loading dock. `answer` picks what comes back: ok, wrong (a text temperature) or none (no structured content)',
      inputSchema: { answer: z.enum(['ok', 'wrong', 'none']) },
      outputSchema: { temperature: z.number(), sky: z.string() },
      annotations: { readOnlyHint: true },
    },
    () => ({ content: [{ type: 'text', text: '{"temperature":12,"sky":"clear"}' }], structuredContent: { temperature: 12, sky: 'clear' } }),
  );
  server.registerTool('grow_quietly', { description: 'Adds quiet_tool, and says so (list_changed) only a while later', inputSchema: {} }, () => {
    const announce = server.sendToolListChanged.bind(server);
    server.sendToolListChanged = () => void setTimeout(announce, 1_500);
    server.registerTool('quiet_tool', { description: 'A tool added without a word', inputSchema: { note: z.string() } }, ({ note }) => ({
      content: [{ type: 'text', text: `quiet tool got ${note}` }],
    }));
    server.sendToolListChanged = announce;
    return { content: [{ type: 'text', text: 'added quiet_tool' }] };
  });
  breakOutputSchema(server);
  return server;
}

type RawHandler = (request: { params?: { name?: string; arguments?: Record<string, unknown> } }, extra: unknown) => Promise<unknown>;

/**
 * McpServer checks a tool's output against its schema before sending it; a careless server does not.
 * `weather` with answer `wrong` or `none` is answered below that check, as such a server would.
 */
function breakOutputSchema(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RawHandler> })._requestHandlers;
  const inner = handlers.get('tools/call')!;
  handlers.set('tools/call', (request, extra) => {
    const { name, arguments: args } = request.params ?? {};
    if (name === 'weather' && args?.answer === 'wrong') {
      return Promise.resolve({ content: [{ type: 'text', text: '{"temperature":"warm","sky":"clear"}' }], structuredContent: { temperature: 'warm', sky: 'clear' } });
    }
    if (name === 'weather' && args?.answer === 'none') return Promise.resolve({ content: [{ type: 'text', text: 'warm and clear' }] });
    return inner(request, extra);
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const nameAt = args.indexOf('--name');
  const name = nameAt >= 0 ? (args[nameAt + 1] ?? 'stranger') : 'stranger';
  if (!args.includes('--http')) {
    await build(name).connect(new StdioServerTransport());
    return;
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void sessions.set(sid, transport!) });
        await build(name).connect(transport);
      }
      await transport.handleRequest(req, res);
    })().catch(() => res.destroy());
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
  });
}

void main();

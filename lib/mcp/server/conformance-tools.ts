/**
 * The test tools the official MCP conformance suite calls by name (tools-call-* and
 * json-schema-2020-12), served only when a server is started with `--conformance-tools`, so the
 * suite's tool scenarios run against real tools of the right kind instead of passing on an
 * "unknown tool" error. Never offered to a model: the harness's servers and /api/mcp leave them out.
 *
 * Notifications (log messages, progress) go out on the session's standalone stream: the HTTP
 * server answers requests as JSON, and a client matches progress by its token, not its stream.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/** A 1×1 red PNG, as the suite suggests. */
export const RED_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid, silent 8 kHz mono WAV of 8 samples. */
function silentWav(): string {
  const samples = 8;
  const b = Buffer.alloc(44 + samples);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  b.fill(128, 44);
  return b.toString('base64');
}

const noArgs = { type: 'object', properties: {}, additionalProperties: false } as Tool['inputSchema'];
const tool = (name: string, description: string, inputSchema: Tool['inputSchema'] = noArgs): Tool => ({ name, description, inputSchema, annotations: { readOnlyHint: true } });

export const CONFORMANCE_TOOLS: readonly Tool[] = [
  tool('test_simple_text', 'Conformance: returns one text part'),
  tool('test_image_content', 'Conformance: returns a PNG image part'),
  tool('test_audio_content', 'Conformance: returns a WAV audio part'),
  tool('test_embedded_resource', 'Conformance: returns an embedded text resource'),
  tool('test_multiple_content_types', 'Conformance: returns text, an image and a resource'),
  tool('test_tool_with_logging', 'Conformance: sends three log messages while it runs'),
  tool('test_tool_with_progress', 'Conformance: reports progress 0, 50, 100 of 100'),
  tool('test_error_handling', 'Conformance: always fails with isError'),
  tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  } as Tool['inputSchema']),
];

const NAMES = new Set(CONFORMANCE_TOOLS.map((t) => t.name));

export function isConformanceTool(name: string): boolean {
  return NAMES.has(name);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one conformance tool; `progressToken` is the request's, when it sent one. */
export async function callConformanceTool(server: Server, name: string, progressToken: string | number | undefined): Promise<CallToolResult> {
  switch (name) {
    case 'test_simple_text':
      return { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] };
    case 'test_image_content':
      return { content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] };
    case 'test_audio_content':
      return { content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] };
    case 'test_embedded_resource':
      return { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] };
    case 'test_multiple_content_types':
      return {
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      };
    case 'test_tool_with_logging':
      for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
        if (i > 0) await pause(50);
        await server.sendLoggingMessage({ level: 'info', logger: 'conformance', data });
      }
      return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
    case 'test_tool_with_progress':
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i > 0) await pause(50);
        if (progressToken !== undefined) await server.notification({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      }
      // The notifications travel on the session's own stream, the answer on the request's
      // connection: a client drops progress that arrives after the answer, so let the last one land.
      await pause(50);
      return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
    case 'test_error_handling':
      return { content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true };
    default:
      return { content: [{ type: 'text', text: `name: ${name}` }] };
  }
}

/**
 * Every kind of MCP tool-result part in a form a model can use (issue 24 §4): text stays text; an
 * image or audio clip becomes a short placeholder naming its type and size (`[image image/png,
 * 30 KB]`), a resource link its URI, an embedded text resource its text; the full parts are kept
 * beside the result (`media`) for the run's record and replay, never sent as base64 in the text.
 */
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../../harness';

/** Characters of an embedded text resource passed to the model before it is cut. */
export const EMBEDDED_TEXT_KEEP_CHARS = 4_000;

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const trimmed = data.replace(/\s/g, '');
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

/** `30 KB`, `512 B`, `1.4 MB`: what a person (or a model) needs to know of a size. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The model's line for one non-text part. */
export function describePart(part: ContentBlock): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mimeType}, ${formatBytes(base64Bytes(part.data))}]`;
    case 'resource_link':
      return `[resource_link ${part.uri}${part.name ? ` (${part.name}${part.mimeType ? `, ${part.mimeType}` : ''})` : ''}]`;
    case 'resource': {
      const r = part.resource;
      if ('text' in r && typeof r.text === 'string') {
        const text = r.text.length > EMBEDDED_TEXT_KEEP_CHARS ? `${r.text.slice(0, EMBEDDED_TEXT_KEEP_CHARS)}… [${r.text.length - EMBEDDED_TEXT_KEEP_CHARS} characters cut]` : r.text;
        return `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}]\n${text}`;
      }
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}, ${formatBytes(base64Bytes(blob))}]`;
    }
    default:
      return `[${(part as { type: string }).type}]`;
  }
}

/** Whether a result holds anything besides text parts. */
export function hasMedia(result: CallToolResult): boolean {
  return result.content.some((part) => part.type !== 'text');
}

/** The non-text parts, whole, as stored with the run (base64 and all). */
export function mediaParts(result: CallToolResult): JsonObject[] {
  return result.content.filter((part) => part.type !== 'text').map((part) => structuredClone(part) as unknown as JsonObject);
}

/** Every part as the model reads it, in the server's order, one per line. */
export function modelText(result: CallToolResult): string {
  return result.content.map(describePart).join('\n');
}

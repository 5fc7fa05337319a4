'use client';
/**
 * The parts of a tool result that are not text, as the tool server sent them: an image rendered
 * (raster types only, from a data: URL, never fetched from anywhere), audio playable, a resource
 * link shown as its URI (as text, not a link: it is the server's, not ours to open), an embedded
 * resource as a collapsible tree. The model was given a short description of each instead.
 */
import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '@/components/fetch-json';
import { JsonTree, parseJsonText } from '@/components/json-tree';

/** Image types a browser renders without running anything (an SVG could carry script). */
const RASTER = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;
const AUDIO = /^audio\/(wav|x-wav|mpeg|ogg|webm|mp4|aac|flac)$/;

type Part = { type: string; [key: string]: unknown };

function sizeOf(data: unknown): string {
  const bytes = typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0;
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
}

function MediaPart({ part, tool, n }: { part: Part; tool: string; n: number }) {
  const mime = typeof part.mimeType === 'string' ? part.mimeType : '';
  if (part.type === 'image') {
    return RASTER.test(mime) && typeof part.data === 'string' ? (
      <figure className="tool-media">
        {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL from the stored run, not an asset Next could optimise */}
        <img src={`data:${mime};base64,${part.data}`} alt={`Image ${n} returned by ${tool} (${mime}, ${sizeOf(part.data)})`} style={{ maxWidth: '100%', maxHeight: 360 }} />
        <figcaption className="small muted">
          image {mime}, {sizeOf(part.data)}
        </figcaption>
      </figure>
    ) : (
      <p className="small">image {mime || 'of unknown type'} (not shown: only raster images are rendered)</p>
    );
  }
  if (part.type === 'audio') {
    return AUDIO.test(mime) && typeof part.data === 'string' ? (
      <figure className="tool-media">
        <audio controls src={`data:${mime};base64,${part.data}`} aria-label={`Audio ${n} returned by ${tool}`} />
        <figcaption className="small muted">
          audio {mime}, {sizeOf(part.data)}
        </figcaption>
      </figure>
    ) : (
      <p className="small">audio {mime || 'of unknown type'}</p>
    );
  }
  if (part.type === 'resource_link') {
    return (
      <p className="small">
        resource link <code>{String(part.uri ?? '')}</code>
        {part.name ? ` (${String(part.name)}${mime ? `, ${mime}` : ''})` : ''}
      </p>
    );
  }
  if (part.type === 'resource' && part.resource && typeof part.resource === 'object') {
    const resource = part.resource as Record<string, unknown>;
    const text = typeof resource.text === 'string' ? parseJsonText(resource.text) : null;
    const shown = text?.ok ? { ...resource, text: text.value } : resource;
    return <JsonTree value={shown} label={`Resource ${String(resource.uri ?? '')} returned by ${tool}`} expandLevels="all" />;
  }
  return <JsonTree value={part} label={`Part ${n} returned by ${tool}`} />;
}

export function ToolMedia({ runId, index, tool }: { runId: string; index: number; tool: string }) {
  const q = useQuery({
    queryKey: ['tool-media', runId, index],
    queryFn: ({ signal }) => fetchJson<{ media: Part[] }>(`/api/runs/${encodeURIComponent(runId)}/tool-media?index=${index}`, signal),
    staleTime: Infinity,
  });
  if (q.isPending) return <p className="muted small">Loading the images and resources…</p>;
  if (q.isError) return <p className="field-error">{q.error.message}</p>;
  return (
    <div data-testid="tool-media">
      {q.data.media.map((part, i) => (
        <MediaPart key={i} part={part} tool={tool} n={i + 1} />
      ))}
    </div>
  );
}

/**
 * What a failed streamed attempt had received, written into its retry's detail so every place that
 * keeps or shows the detail (the stored event row, the replay, the trace export) keeps it too, and
 * read back from a stored detail.
 */
import type { StreamedPartial } from './client';

const NOTE = / \[received (\d+) characters in (\d+) events: ("(?:[^"\\]|\\.)*")\]$/;

/** ` [received N characters in M events: "…"]`, appended to a retry's detail. */
export function partialNote(p: StreamedPartial): string {
  return ` [received ${p.chars} characters in ${p.events} events: ${JSON.stringify(p.text)}]`;
}

/** The partial a detail ends with (partialNote's form); undefined when it has none. */
export function partialFromDetail(detail: string): StreamedPartial | undefined {
  const m = NOTE.exec(detail);
  if (!m) return undefined;
  try {
    return { chars: Number(m[1]), events: Number(m[2]), text: JSON.parse(m[3]!) as string };
  } catch {
    return undefined;
  }
}

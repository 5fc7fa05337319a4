/**
 * A compact wire form of a replay timeline. A 20,000-step run has tens of thousands of transitions
 * that repeat a handful of states and reasons; sending them as objects made the replay page's
 * payload megabytes. Packed, they are a few flat number arrays plus two short string tables.
 */
import type { TimelineDto } from '../db/run-timeline';

export interface PackedTimeline {
  /** Distinct strings (states and reasons), referenced by position. */
  strings: string[];
  /** Per transition: index, step, from, to, reason (string positions for the last three). */
  transitions: number[];
  /** Per model call: step, input tokens, output tokens. */
  calls: number[];
  events: TimelineDto['events'];
}

export function packTimeline(t: TimelineDto): PackedTimeline {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const ref = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) {
      id = strings.push(s) - 1;
      ids.set(s, id);
    }
    return id;
  };
  const transitions: number[] = [];
  for (const x of t.transitions) transitions.push(x.index, x.step, ref(x.from), ref(x.to), ref(x.reason));
  const calls: number[] = [];
  for (const c of t.calls) calls.push(c.step, c.inputTokens, c.outputTokens);
  return { strings, transitions, calls, events: t.events };
}

export function unpackTimeline(p: PackedTimeline): TimelineDto {
  const s = (i: number | undefined) => p.strings[i ?? -1] ?? '';
  const transitions: TimelineDto['transitions'] = [];
  for (let i = 0; i + 4 < p.transitions.length; i += 5) {
    const a = p.transitions;
    transitions.push({ index: a[i]!, step: a[i + 1]!, from: s(a[i + 2]), to: s(a[i + 3]), reason: s(a[i + 4]) });
  }
  const calls: TimelineDto['calls'] = [];
  for (let i = 0; i + 2 < p.calls.length; i += 3) calls.push({ step: p.calls[i]!, inputTokens: p.calls[i + 1]!, outputTokens: p.calls[i + 2]! });
  return { transitions, calls, events: p.events };
}

/**
 * A compact wire form of a replay timeline. A 20,000-step run has tens of thousands of transitions
 * that repeat a handful of states and reasons; sending them as objects made the replay page's
 * payload megabytes. Packed, they are a few flat number arrays plus two short string tables. The
 * indexes, steps and input-token counts climb steadily, so each is sent as its difference from the
 * previous entry's: small numbers of one or two digits instead of five to seven (the replay page's
 * payload was most of half a megabyte of such digits, serialised and sent twice, as RSC and in HTML).
 * Each list of numbers travels as one string (`1,0,2,3,4,…`): the page's payload reader visits every value
 * of an array one by one, and a 5,000-span run's ~40,000 numbers were a good part of its parse (issue 31).
 */
import type { TimelineDto } from '../db/runs';

export interface PackedTimeline {
  /** Distinct strings (states and reasons), referenced by position. */
  strings: string[];
  /** Per transition, comma-separated: index and step (each as the difference from the previous transition's), from, to, reason (string positions for the last three). */
  transitions: string;
  /** Per model call, comma-separated: step and input tokens (each as the difference from the previous call's), output tokens. */
  calls: string;
  events: TimelineDto['events'];
}

/** The packed output count of a call whose usage was not reported. */
const UNREPORTED = -1;

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
  let index = 0;
  let step = 0;
  for (const x of t.transitions) {
    transitions.push(x.index - index, x.step - step, ref(x.from), ref(x.to), ref(x.reason));
    index = x.index;
    step = x.step;
  }
  const calls: number[] = [];
  let callStep = 0;
  let input = 0;
  for (const c of t.calls) {
    calls.push(c.step - callStep);
    callStep = c.step;
    // A call without reported usage: output -1 (counts are never negative), the input base unchanged.
    if (c.inputTokens === null || c.outputTokens === null) calls.push(0, UNREPORTED);
    else {
      calls.push(c.inputTokens - input, c.outputTokens);
      input = c.inputTokens;
    }
  }
  return { strings, transitions: transitions.join(','), calls: calls.join(','), events: t.events };
}

/** The numbers of a packed list ('' is none). */
export function numbersOf(packed: string): number[] {
  return packed === '' ? [] : packed.split(',').map(Number);
}

export function unpackTimeline(p: PackedTimeline): TimelineDto {
  const s = (i: number | undefined) => p.strings[i ?? -1] ?? '';
  const packedTransitions = numbersOf(p.transitions);
  const packedCalls = numbersOf(p.calls);
  const transitions: TimelineDto['transitions'] = [];
  let index = 0;
  let step = 0;
  for (let i = 0; i + 4 < packedTransitions.length; i += 5) {
    const a = packedTransitions;
    index += a[i]!;
    step += a[i + 1]!;
    transitions.push({ index, step, from: s(a[i + 2]), to: s(a[i + 3]), reason: s(a[i + 4]) });
  }
  const calls: TimelineDto['calls'] = [];
  let callStep = 0;
  let input = 0;
  for (let i = 0; i + 2 < packedCalls.length; i += 3) {
    callStep += packedCalls[i]!;
    input += packedCalls[i + 1]!;
    const output = packedCalls[i + 2]!;
    calls.push(output === UNREPORTED ? { step: callStep, inputTokens: null, outputTokens: null } : { step: callStep, inputTokens: input, outputTokens: output });
  }
  return { transitions, calls, events: p.events };
}

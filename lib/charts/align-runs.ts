/**
 * Two runs aligned by harness step for the compare page: per step, each side's tool calls and
 * guard events, and what differs (a different tool, different arguments, a step only one run
 * reached), plus whether the runs ended differently.
 */

/** The part of a trajectory entry the comparison needs. */
export type AlignEntry =
  | { kind: 'model_turn'; step: number; text: string | null }
  | { kind: 'tool_call'; step: number; name: string; arguments: unknown; status: string }
  | { kind: 'guard'; step: number; guard: string; reason: string; detail: string }
  | { kind: 'compaction'; step: number };

export interface AlignSide {
  entries: readonly AlignEntry[];
  terminationReason: string;
  finalAnswer: string;
}

export type StepDifference =
  | 'same'
  | 'different_tool'
  | 'a_answered'
  | 'b_answered'
  | 'different_arguments'
  | 'different_outcome'
  | 'different_answer'
  | 'only_a'
  | 'only_b';

export interface AlignedCall {
  name: string;
  args: string;
  status: string;
}

export interface AlignedStep {
  step: number;
  a: { calls: AlignedCall[]; guards: string[]; text: string | null } | null;
  b: { calls: AlignedCall[]; guards: string[]; text: string | null } | null;
  difference: StepDifference;
}

export interface Alignment {
  steps: AlignedStep[];
  differentSteps: number;
  terminationDiffers: boolean;
  answerDiffers: boolean;
}

/** JSON with object keys sorted, so argument order never counts as a difference. */
export function canonicalJson(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(norm(value)) ?? 'null';
}

function sideAt(entries: readonly AlignEntry[], step: number): AlignedStep['a'] {
  const here = entries.filter((e) => e.step === step);
  if (here.length === 0) return null;
  const calls = here.flatMap((e) => (e.kind === 'tool_call' ? [{ name: e.name, args: canonicalJson(e.arguments), status: e.status }] : []));
  const guards = here.flatMap((e) => (e.kind === 'guard' ? [`${e.guard}: ${e.reason}`] : []));
  const turn = here.find((e) => e.kind === 'model_turn');
  return { calls, guards, text: turn && turn.kind === 'model_turn' ? turn.text : null };
}

function classify(a: AlignedStep['a'], b: AlignedStep['b']): StepDifference {
  if (!a) return 'only_b';
  if (!b) return 'only_a';
  // One run answered where the other called a tool: not a choice between two tools.
  if (a.calls.length === 0 && b.calls.length > 0) return 'a_answered';
  if (b.calls.length === 0 && a.calls.length > 0) return 'b_answered';
  const names = (s: NonNullable<AlignedStep['a']>) => s.calls.map((c) => c.name).join('\n');
  if (names(a) !== names(b)) return 'different_tool';
  if (a.calls.map((c) => c.args).join('\n') !== b.calls.map((c) => c.args).join('\n')) return 'different_arguments';
  if (a.calls.map((c) => c.status).join('\n') !== b.calls.map((c) => c.status).join('\n') || a.guards.join('\n') !== b.guards.join('\n'))
    return 'different_outcome';
  if (a.calls.length === 0 && b.calls.length === 0 && a.text !== b.text) return 'different_answer';
  return 'same';
}

/** Aligns two runs step by step (every step either run reached, in order). */
export function alignRuns(a: AlignSide, b: AlignSide): Alignment {
  const steps = [...new Set([...a.entries, ...b.entries].map((e) => e.step))].sort((x, y) => x - y);
  const aligned = steps.map((step) => {
    const sa = sideAt(a.entries, step);
    const sb = sideAt(b.entries, step);
    return { step, a: sa, b: sb, difference: classify(sa, sb) };
  });
  return {
    steps: aligned,
    differentSteps: aligned.filter((s) => s.difference !== 'same').length,
    terminationDiffers: a.terminationReason !== b.terminationReason,
    answerDiffers: a.finalAnswer !== b.finalAnswer,
  };
}

/** A sentence for a difference kind. */
export const DIFFERENCE_LABELS: Record<StepDifference, string> = {
  same: 'same',
  different_tool: 'different tool',
  a_answered: 'A answered, B called a tool',
  b_answered: 'A called a tool, B answered',
  different_arguments: 'different arguments',
  different_outcome: 'different outcome',
  different_answer: 'different answer',
  only_a: 'only in A',
  only_b: 'only in B',
};

/**
 * Loop detection over a run's tool records (SPEC.md §12.7, the reference ToolCallEvaluator with
 * window 3) and the context growth ratio.
 */
import { isJsonObject, jsonEqual, type JsonValue } from '../harness';
import { pyJson } from '../harness';
import type { ModelTurn } from '../harness';
import { roundTo } from './numbers';

/** The metrics' loop window: a signature seen this many times is a loop. */
export const LOOP_WINDOW = 3;

export type LoopFindingKind = 'repeated_identical_call' | 'loop' | 'redundant_query';

export interface LoopFinding {
  kind: LoopFindingKind;
  /** `{name}:{sorted-key arguments JSON}` of the call concerned. */
  signature: string;
  /** Steps of the records involved. */
  steps: number[];
  detail: string;
}

/** The part of a tool record loop detection looks at: every record counts, executed or not. */
export interface LoopRecord {
  name: string;
  arguments: JsonValue;
  step: number;
}

/** The signature the metrics compare: name plus sorted-key, ASCII-escaped Python-JSON arguments. */
export function callSignature(name: string, args: JsonValue): string {
  return `${name}:${pyJson(args, { sortKeys: true })}`;
}

function strictlyContains(wider: JsonValue, narrower: JsonValue): boolean {
  if (!isJsonObject(wider) || !isJsonObject(narrower)) return false;
  const keys = Object.keys(narrower);
  if (keys.length >= Object.keys(wider).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(wider, k) && jsonEqual(wider[k], narrower[k]));
}

/**
 * Finds repeated identical calls (one per maximal run of two or more consecutive identical
 * signatures), loops (one per signature seen `window` times anywhere) and redundant queries (a
 * call whose arguments an earlier same-name call strictly contained).
 */
export function detectLoops(records: readonly LoopRecord[], window: number = LOOP_WINDOW): LoopFinding[] {
  const findings: LoopFinding[] = [];
  const signatures = records.map((r) => callSignature(r.name, r.arguments));

  let start = 0;
  for (let i = 1; i <= records.length; i++) {
    if (i < records.length && signatures[i] === signatures[start]) continue;
    const length = i - start;
    if (length >= 2) {
      findings.push({
        kind: 'repeated_identical_call',
        signature: signatures[start] as string,
        steps: records.slice(start, i).map((r) => r.step),
        detail: `${records[start]!.name} called ${length} times in a row with identical arguments`,
      });
    }
    start = i;
  }

  const bySignature = new Map<string, number[]>();
  signatures.forEach((sig, i) => {
    const steps = bySignature.get(sig) ?? [];
    steps.push(records[i]!.step);
    bySignature.set(sig, steps);
  });
  for (const [signature, steps] of bySignature) {
    if (steps.length >= window) {
      findings.push({ kind: 'loop', signature, steps, detail: `identical call made ${steps.length} times (window ${window})` });
    }
  }

  records.forEach((record, i) => {
    for (let j = 0; j < i; j++) {
      const earlier = records[j]!;
      if (earlier.name === record.name && signatures[j] !== signatures[i] && strictlyContains(earlier.arguments, record.arguments)) {
        findings.push({
          kind: 'redundant_query',
          signature: signatures[i] as string,
          steps: [earlier.step, record.step],
          detail: `${record.name} repeated a narrower form of an earlier call`,
        });
        break;
      }
    }
  });
  return findings;
}

/**
 * Last over first per-turn context size (the harness's estimate, or the turn's input tokens when
 * the estimate is 0), to 3 decimals; 1.0 without turns or when the first size is 0.
 */
export function contextGrowthRatio(turns: readonly Pick<ModelTurn, 'contextTokensEstimate' | 'inputTokens'>[]): number {
  const sizes = turns.map((t) => t.contextTokensEstimate || (t.inputTokens ?? 0));
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  if (first === undefined || last === undefined || first === 0) return 1;
  return roundTo(last / first, 3);
}

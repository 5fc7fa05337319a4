/**
 * Mermaid source for the harness state machine (PLAN → CALL_MODEL → EXECUTE_TOOLS → OBSERVE → …
 * → DONE | FAILED), with the state a replay is at highlighted and the edges the run took marked.
 * Pure: the client component only hands the text to mermaid.
 */
import { HARNESS_STATES, type HarnessState } from '../harness/browser';

/** Every edge the loop can take (lib/harness/loop/run.ts), in a stable drawing order. */
export const STATE_EDGES: ReadonlyArray<readonly [HarnessState, HarnessState]> = [
  ['PLAN', 'CALL_MODEL'],
  ['CALL_MODEL', 'EXECUTE_TOOLS'],
  ['EXECUTE_TOOLS', 'OBSERVE'],
  ['OBSERVE', 'CALL_MODEL'],
  ['CALL_MODEL', 'DONE'],
  ['CALL_MODEL', 'FAILED'],
  ['EXECUTE_TOOLS', 'FAILED'],
  ['OBSERVE', 'FAILED'],
];

export interface StateDiagramInput {
  /** The state the replay is at (highlighted); null draws the plain machine. */
  current: string | null;
  /** Transitions taken so far, as `from→to` pairs (edges taken are drawn thick). */
  taken?: ReadonlyArray<{ from: string; to: string }>;
  /** The transition that led to `current` (drawn in the accent colour). */
  last?: { from: string; to: string } | null;
}

const isState = (s: string): s is HarnessState => (HARNESS_STATES as readonly string[]).includes(s);

/**
 * A `flowchart LR` (not `stateDiagram`: flowcharts support per-edge `linkStyle`, which the replay
 * needs to mark the edge just taken). Every label is a fixed state name, never run text, so
 * nothing from a model or tool reaches mermaid.
 */
export function stateDiagramSource(input: StateDiagramInput): string {
  const edges: Array<readonly [string, string]> = [...STATE_EDGES];
  // A transition the table does not know (a future loop change) is still drawn rather than hidden.
  for (const t of input.taken ?? []) {
    if (isState(t.from) && isState(t.to) && !edges.some(([a, b]) => a === t.from && b === t.to)) edges.push([t.from, t.to]);
  }
  const lines = ['flowchart LR'];
  for (const s of HARNESS_STATES) lines.push(`  ${s}${s === 'DONE' || s === 'FAILED' ? `(["${s}"])` : `["${s}"]`}`);
  edges.forEach(([a, b]) => lines.push(`  ${a} --> ${b}`));
  lines.push('  classDef current fill:#1d4ed8,stroke:#1e3a8a,color:#ffffff,stroke-width:3px');
  lines.push('  classDef terminalDone fill:#dcfce7,stroke:#166534,color:#14532d');
  lines.push('  classDef terminalFailed fill:#fee2e2,stroke:#991b1b,color:#7f1d1d');
  lines.push('  class DONE terminalDone');
  lines.push('  class FAILED terminalFailed');
  if (input.current && isState(input.current)) lines.push(`  class ${input.current} current`);
  const takenSet = new Set((input.taken ?? []).map((t) => `${t.from}>${t.to}`));
  edges.forEach(([a, b], i) => {
    const key = `${a}>${b}`;
    if (input.last && input.last.from === a && input.last.to === b) lines.push(`  linkStyle ${i} stroke:#1d4ed8,stroke-width:4px`);
    else if (takenSet.has(key)) lines.push(`  linkStyle ${i} stroke:#475569,stroke-width:2.5px`);
    else lines.push(`  linkStyle ${i} stroke:#cbd5e1,stroke-width:1px`);
  });
  return lines.join('\n');
}

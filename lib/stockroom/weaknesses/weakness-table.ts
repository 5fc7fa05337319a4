/**
 * The one table of the course's weakness flags: what each flag changes in the environment, in the
 * scripted model and in the harness, as words for the pages (instructor, matrix, home) and as the plain
 * switches the loop and the fake model take. The loop never reads a flag's name; this table is the only
 * place a flag becomes `repeatedCallGuard: false` or `quarantine: false` (SPEC §2.2).
 */
import { WEAKNESS_FLAGS, type RunGuardName, type WeaknessFlag } from '../../harness/browser';

/** What the loop does that a flag can switch off; each is on unless a flag says otherwise. */
export interface LoopSwitches {
  /** Stop a run on the window's worth of identical calls (REPEATED_CALL). */
  repeatedCallGuard: boolean;
  /** Remove instruction-like lines from tool output before the model reads it. */
  quarantine: boolean;
}

/** How the scripted (fake) model behaves; each is off unless a flag says otherwise. */
export interface ModelHabits {
  /** Re-issues a call after a transient error instead of giving up on it. */
  naiveRetry: boolean;
  /** Follows an instruction found in tool output. */
  followsInjections: boolean;
}

export interface WeaknessEntry {
  /** A few words for a toggle. */
  help: string;
  /** What the flag does to a run, in a sentence, for the pages that explain the course. */
  description: string;
  /** The environment's part, in words (null: none). */
  environment: string | null;
  /** The scripted model's part, in words (null: none). */
  model: string | null;
  /** The harness's part, in words (null: none). */
  harness: string | null;
  /** Run the flag with these run guards to see its environment's part alone. */
  alone: { guards: RunGuardName[]; label: string; expect: string } | null;
  /** The loop switches this flag turns off. */
  loopOff: readonly (keyof LoopSwitches)[];
  /** The scripted model's habits this flag turns on. */
  modelOn: readonly (keyof ModelHabits)[];
}

export const WEAKNESSES: Readonly<Record<WeaknessFlag, WeaknessEntry>> = {
  ambiguous_tool_desc: {
    help: 'search tool described vaguely',
    description: 'The search tool is described so broadly that the model picks it for stock and order questions.',
    environment: 'search_products gets the broad description (§6.2)',
    model: 'the scripted planner picks tools by description, so stock and order lookups go to search_products (§10.5)',
    harness: null,
    alone: null,
    loopOff: [],
    modelOn: [],
  },
  oversized_payload: {
    help: 'tools return whole records',
    description:
      'Product search returns whole records, and the entire catalogue for a broad query, so the context balloons until the token budget stops the run.',
    environment: 'search_products loses its max_results parameter and returns full records — the whole catalogue for 0 or 3+ matches (§7.2)',
    model: null,
    harness: null,
    alone: null,
    loopOff: [],
    modelOn: [],
  },
  naive_retry: {
    help: 'failing order shard, and no repeated-call guard',
    description:
      'The legacy order shard keeps timing out, the model re-sends the identical call, and with the repeated-call guard off it loops until the step limit.',
    environment: 'the legacy order shard fails every attempt, and get_order_status makes one attempt per call (§7.4)',
    model: 'the scripted planner re-issues a call after a transient error (§10.7)',
    harness: 'the repeated-call guard is off (§11.4)',
    alone: {
      guards: ['repeated_call'],
      label: 'naive_retry with the repeated-call guard kept on',
      expect: 'the same failing shard, and the guard stops the loop: REPEATED_CALL instead of MAX_STEPS',
    },
    loopOff: ['repeatedCallGuard'],
    modelOn: ['naiveRetry'],
  },
  injection_unguarded: {
    help: 'no quarantine of tool text',
    description: 'Instruction-like text in tool output is not quarantined, so a planted notice can steer the model.',
    environment: null,
    model: 'the scripted planner follows an instruction found in policy search results and leaks the system prompt (§10.8, §10.9)',
    harness: 'tool output is not sanitised: no quarantine of instruction-like text (§11.7)',
    alone: null,
    loopOff: ['quarantine'],
    modelOn: ['followsInjections'],
  },
};

/**
 * The loop's switches under these flags. The run guard `repeated_call` keeps the repeated-call guard on
 * whatever a flag says, so a flag's environment part can be seen alone.
 */
export function loopSwitchesFor(weaknesses: readonly WeaknessFlag[], guards: readonly RunGuardName[] = []): LoopSwitches {
  const off = new Set(weaknesses.flatMap((w) => WEAKNESSES[w].loopOff));
  return {
    repeatedCallGuard: !off.has('repeatedCallGuard') || guards.includes('repeated_call'),
    quarantine: !off.has('quarantine'),
  };
}

/** The scripted model's habits under these flags. */
export function modelHabitsFor(weaknesses: readonly WeaknessFlag[]): ModelHabits {
  const on = new Set(weaknesses.flatMap((w) => WEAKNESSES[w].modelOn));
  return { naiveRetry: on.has('naiveRetry'), followsInjections: on.has('followsInjections') };
}

/**
 * The flags in the course's published order: the matrix's rows after `none`, the instructor page's
 * toggles. The pages and the matrix read the flags here, beside what each one switches.
 */
export const WEAKNESS_ORDER: readonly WeaknessFlag[] = WEAKNESS_FLAGS;

/** A loop switch turned off, in words. */
const LOOP_OFF_WORDS: Readonly<Record<keyof LoopSwitches, string>> = {
  repeatedCallGuard: 'repeated-call guard off',
  quarantine: 'quarantine off',
};

/** A model habit turned on, in words. */
const MODEL_ON_WORDS: Readonly<Record<keyof ModelHabits, string>> = {
  naiveRetry: 'model re-issues a failed call',
  followsInjections: 'model follows planted instructions',
};

/** What a flag switches, in a few words: the loop switches it turns off, the model habits it turns on, or the environment alone. */
export function switchesOf(flag: WeaknessFlag): string {
  const entry = WEAKNESSES[flag];
  const parts = [...(entry.environment ? ['environment'] : []), ...entry.loopOff.map((k) => LOOP_OFF_WORDS[k]), ...entry.modelOn.map((k) => MODEL_ON_WORDS[k])];
  return parts.join(', ');
}

/** One line of the matrix's legend: a flag, what it switches, and what it does to a run. */
export interface WeaknessLegendRow {
  flag: WeaknessFlag;
  switches: string;
  description: string;
}

/** The legend of the matrix (CLI and page) and the instructor page, in published order. */
export function weaknessLegend(): WeaknessLegendRow[] {
  return WEAKNESS_ORDER.map((flag) => ({ flag, switches: switchesOf(flag), description: WEAKNESSES[flag].description }));
}

/** The legend as text under the CLI's matrix table: `flag  (switches)  description`, one line a flag. */
export function formatWeaknessLegend(): string {
  const rows = weaknessLegend();
  const width = Math.max(...rows.map((r) => r.flag.length));
  return rows.map((r) => `${r.flag.padEnd(width)}  (${r.switches})  ${r.description}`).join('\n');
}

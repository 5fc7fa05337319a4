/**
 * The data layer's inputs and DTOs. Pages and actions see these small shapes, never Prisma rows.
 */
import type { RunTextMatch } from './run-search';
import type { JsonValue } from '../../harness';
import type { Agent, RunResult, SetAside, TrajectoryStep } from '../../harness';
import type { Redaction } from '../../governance';

/** What a run is stored with besides its RunResult. */
export interface SaveRunMeta {
  datasetName: string;
  datasetHash: string;
  /** `local`, `mcp-stdio`, … (the executor's label). */
  transport: string;
  /** The case's category in the dataset, when the run answered a dataset case. */
  category?: string | null;
  /** The resolved harness configuration (stored as JSON). */
  config: JsonValue | Record<string, unknown>;
  suiteRunId?: string | null;
  /** Which repetition of its suite case the run is, from 0 (suite runs with epochs > 1; 0 by default). */
  epoch?: number;
  /** The dashboard user who started the run. */
  createdBy?: string | null;
  /** The tenant the run belongs to (its dataset's tenant); DEFAULT_TENANT when not given. */
  tenant?: string;
  /** Whether the run ran under the governance policy. */
  governed?: boolean;
  /** A chosen id (tests, imports); by default a new time-ordered id. */
  id?: string;
  /** `harness` (default: run here) or `imported` (an OTLP trace or a run file read back). */
  source?: RunSource;
  /** An imported trace's `session.id` (the session view lists a session's runs in order). */
  sessionId?: string | null;
  /** An imported trace's `user.id` (the traced application's end user). */
  traceUserId?: string | null;
  /**
   * Tags it was started or traced with (lib/eval/run-tags.ts; issue 37). Kept when the run is stored
   * again (a rebuilt trace's new tags are added), like reviewers' labels.
   */
  tags?: readonly string[];
}

export const RUN_SOURCES = ['harness', 'imported'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];

/** One run of a batch for `saveRuns`. */
export interface SaveRunInput {
  run: RunResult;
  meta: SaveRunMeta;
}

/** A row of the runs table page. */
export interface RunListItem {
  id: string;
  /** With a text filter: where the text matched (question, answer, a tool's arguments or result). */
  match?: RunTextMatch;
  harnessRunId: string;
  suiteRunId: string | null;
  caseId: string | null;
  category: string | null;
  query: string;
  datasetName: string;
  /** `none` or the sorted weakness flags joined with `+`. */
  setting: string;
  weaknesses: string[];
  transport: string;
  /** `harness`, or `imported` for a run read from a trace or a run file. */
  source: RunSource;
  mode: string;
  modelId: string;
  terminationReason: string;
  /** `finished`, `paused` while a call awaits approval, or `running` while a live run is stored step by step. */
  status: string;
  /** Whether the run ran under the governance policy (false: shown as "ungoverned"). */
  governed: boolean;
  steps: number;
  toolCallCount: number;
  toolErrorCount: number;
  blockedCount: number;
  guardCount: number;
  totalTokens: number;
  /** Null when the model has no price (unknown, never free). */
  costUsd: number | null;
  /** False when the model has no price. */
  costKnown: boolean;
  /** Provider calls whose usage was not reported: tokens and cost are then lower bounds (issue 40). */
  unreportedCalls: number;
  durationMs: number;
  startedAt: string;
  /** An imported trace's `session.id` (the session view: /sessions/[id]), else null. */
  sessionId: string | null;
  /** An imported trace's `user.id` (the traced application's end user), else null. */
  traceUserId: string | null;
  /** How many agents the run had (1 for the harness's own runs: `stockroom`). */
  agentCount: number;
  /** The step at which the run first read a tool result with prompt-injection signals (tainted from there); null: never. */
  taintedStep: number | null;
  /** Its tags, sorted ([] when none). */
  tags: string[];
}

/** The header of one run: everything but its trajectory and model inputs. */
export interface RunSummary extends RunListItem {
  datasetHash: string;
  finalAnswer: string;
  config: JsonValue;
  inputTokens: number;
  outputTokens: number;
  modelCallCount: number;
  compactionCount: number;
  /** Number of trajectory entries; replay pages through `getRunSteps` by index below this. */
  trajectoryLength: number;
  costNote: string;
  systemPrompt: string;
  toolSpecs: JsonValue;
  createdAt: string;
  /** The run's agents, root first (agentsOf: one `stockroom` agent for a run that lists none, whose `transitions` are left empty here: its log is the run's, read by getRunTimeline). */
  agents: Agent[];
  /** What an import set aside or repaired while building the tree ([] when nothing). */
  setAside: SetAside[];
  /** What redaction at rest kept out of storage, by class and where (issue 33); [] when nothing. */
  redactions: Redaction[];
}

/** A whole stored run, rebuilt exactly as it was saved. */
export interface StoredRun {
  id: string;
  meta: Omit<SaveRunMeta, 'id' | 'config'> & { config: JsonValue; setting: string; source: RunSource };
  run: RunResult;
}

/** A tool result as replay lists it: a preview, the full text is fetched on demand. */
export interface ToolResultRef {
  hash: string;
  chars: number;
  preview: string;
  truncated: boolean;
}

/** A tool call on a replay page: its result as a preview, and whether it has non-text parts to fetch. */
type ToolStepDto = Omit<Extract<TrajectoryStep, { kind: 'tool_call' }>, 'resultContent' | 'media'> & { result: ToolResultRef; hasMedia: boolean };

/** One trajectory entry on a replay page; `index` is its position in the trajectory. */
export type StepDto = { index: number } & (Exclude<TrajectoryStep, { kind: 'tool_call' }> | ToolStepDto);

export interface TransitionDto {
  index: number;
  step: number;
  from: string;
  to: string;
  reason: string;
}

/** A range of trajectory entries: by position `[fromIndex, toIndex)`, or by harness step (inclusive). */
export type StepRange = { fromIndex: number; toIndex: number } | { fromStep: number; toStep: number };

export interface StepPage {
  items: StepDto[];
  /**
   * Transitions of the page's steps; the run's first page also has those before its first entry
   * and its last page those after its last entry.
   */
  transitions: TransitionDto[];
  /** Index of the first entry not returned because the page was capped, or null. */
  nextIndex: number | null;
}

/** What one model call saw, rehydrated from blobs. */
export interface ModelInputDto {
  callIndex: number;
  step: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  messages: JsonValue[];
}

export type SuiteKind = 'eval' | 'matrix';
export type SuiteStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface CreateSuiteInput {
  kind: SuiteKind;
  config: JsonValue | Record<string, unknown>;
  datasetName: string;
  datasetHash: string;
  goldenSha256?: string | null;
  /** Planned number of runs (cases × settings), for progress. */
  total: number;
  /** The tenant the suite belongs to (its dataset's tenant); DEFAULT_TENANT when not given. */
  tenant?: string;
  /** The user who started it. */
  createdBy?: string | null;
  id?: string;
  /** The job that works on the suite (lib/jobs SuiteJob), kept so it can be enqueued again after a restart. */
  jobSpec?: Record<string, unknown> | JsonValue;
}

/** One setting's report: aggregate metrics and per-case scores linked to stored runs. */
export interface SaveSuiteSettingInput {
  /** `none` or a weakness flag (matrix), or the eval's setting. */
  setting: string;
  metrics: JsonValue | Record<string, unknown>;
  byCategory: JsonValue | Record<string, unknown>;
  reportedAt?: string | null;
  /** One row per case and epoch (`epoch` from 0; absent: 0). */
  cases: Array<{ caseId: string; epoch?: number; category?: string | null; scores: Record<string, unknown>; runId?: string | null }>;
}

/** A whole suite report (an eval = one setting, a matrix = one per setting). */
export interface SaveSuiteInput {
  goldenSha256?: string | null;
  settings: SaveSuiteSettingInput[];
}

export interface SuiteSettingDto {
  setting: string;
  metrics: JsonValue;
  byCategory: JsonValue;
  reportedAt: string | null;
}

export interface SuiteRunDto {
  id: string;
  kind: SuiteKind;
  status: SuiteStatus;
  /** Runs per case (issue 35): each (setting, case) runs this many times; 1 for suites without epochs. */
  epochs: number;
  total: number;
  completed: number;
  failed: number;
  config: JsonValue;
  datasetName: string;
  datasetHash: string;
  goldenSha256: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  settings: SuiteSettingDto[];
}

/** A suite in a list: its settings by name, and its configuration (small) so a label can name transport, guards and model. */
export type SuiteRunListItem = Omit<SuiteRunDto, 'settings'> & { settings: string[] };

export interface SuiteCaseDto {
  setting: string;
  caseId: string;
  /** Which repetition of the case, from 0 (suites with epochs store one row per epoch). */
  epoch: number;
  category: string | null;
  runId: string | null;
  scores: JsonValue;
}

/** A case whose score on `metric` moved between the baseline setting and another, over its epochs (lib/eval/case-epochs.ts). */
export type { MovedOverEpochs as MovedCase } from '../../eval';

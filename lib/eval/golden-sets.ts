/**
 * Golden sets kept in the database (per tenant, versioned), in the course's golden JSONL format:
 * their names and addresses, drafting a case from a stored run (question, the run's answer to edit
 * into the expected one, its tool calls, the facts it stated), and one case as a JSONL line.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { GoldenCaseRecordSchema, parseGoldenText, type GoldenCase, type GoldenCaseRecord, type GoldenFile } from './golden';
import type { JsonValue } from '../harness';

/** A golden set's name: lower-case letters, digits, `_` and `-`. */
export const GoldenSetNameSchema = z
  .string()
  .trim()
  .min(1, 'a golden set needs a name')
  .max(64, 'at most 64 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, _ and - only');

/** How a suite or report names a stored golden set instead of a file path. */
const REF_PREFIX = 'golden-set://';

/** The address of version `version` of `tenant`'s set `name` (stored as a suite's golden path). */
export function goldenSetRef(tenant: string, name: string, version: number): string {
  return `${REF_PREFIX}${tenant}/${name}@${version}`;
}

/** The parts of a golden-set address, or null when `path` is a file path. */
export function parseGoldenSetRef(path: string): { tenant: string; name: string; version: number } | null {
  if (!path.startsWith(REF_PREFIX)) return null;
  const m = /^([^/]+)\/([a-z0-9][a-z0-9_-]*)@(\d+)$/.exec(path.slice(REF_PREFIX.length));
  return m ? { tenant: m[1]!, name: m[2]!, version: Number(m[3]) } : null;
}

/** `NAME` or `NAME@VERSION` (the CLI's --golden-set): the name, and the version or null for the newest. */
export function parseGoldenSetArg(arg: string): { name: string; version: number | null } {
  const [name, version] = arg.split('@');
  const parsedName = GoldenSetNameSchema.safeParse(name);
  if (!parsedName.success) throw new Error(`--golden-set: ${parsedName.error.issues[0]?.message ?? 'invalid name'}`);
  if (version === undefined) return { name: parsedName.data, version: null };
  if (!/^[1-9]\d*$/.test(version)) throw new Error('--golden-set: the version after @ is a positive whole number');
  return { name: parsedName.data, version: Number(version) };
}

/** SHA-256 of a set's JSONL text (what reports record as the golden file's digest). */
export function goldenTextSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A stored set's text as a GoldenFile (validated; GoldenFileError naming the line and field otherwise). */
export function goldenFileOfText(ref: string, text: string): GoldenFile {
  return { path: ref, sha256: goldenTextSha256(text), cases: parseGoldenText(text, ref) };
}

/** One case as a JSONL line (every field, defaults filled in). */
export function goldenLine(record: GoldenCaseRecord): string {
  return JSON.stringify(GoldenCaseRecordSchema.parse(record));
}

/** What a draft is made from: a stored run's question, answer, category and tool calls. */
export interface RunForDraft {
  id: string;
  caseId: string | null;
  category: string | null;
  query: string;
  finalAnswer: string;
  /** How the run ended (COMPLETED, MAX_STEPS, REPEATED_CALL, …). */
  terminationReason: string;
  toolCalls: { name: string; arguments: JsonValue; isError: boolean; executed: boolean }[];
}

/**
 * A number that counts the run's own work ("8 model calls", "3 steps", "1,200 tokens") states nothing about
 * the warehouse: never an expected fact.
 */
const COUNTER = /^\s*(?:model calls?|tool calls?|calls?|steps?|tokens?|attempts?|retries|tries|times|turns?|ms|seconds?)\b/i;

/** Facts an answer states that a checker can look for: SKU-like ids and numbers, not counters of the run's own work. */
export function factsOf(answer: string): string[] {
  const ids = answer.match(/\b[A-Z]{2,}-\d+[A-Z0-9-]*\b/g) ?? [];
  const numbers = [...answer.matchAll(/(?<![\w.-])\d+(?:\.\d+)?(?![\w-])/g)].filter((m) => !COUNTER.test(answer.slice((m.index ?? 0) + m[0].length))).map((m) => m[0]);
  return [...new Set([...ids, ...numbers])].slice(0, 12);
}

/** Where a draft's expectations came from, and what the person must know before adding it. */
export interface GoldenDraft {
  record: GoldenCaseRecord;
  /** `golden_case`: the run's own golden case; `completed_run`: the run's answer and calls; `failed_run`: only the question. */
  basis: 'golden_case' | 'completed_run' | 'failed_run';
  /** Shown above the form: why the draft holds what it holds (null when nothing needs saying). */
  warning: string | null;
}

/**
 * Drafts a golden case from a run, honestly (issue 43): from a run of a golden case, that case's
 * expectations; from a run that did not complete, the question only — its answer, calls and counters
 * justify nothing — with a warning; from a completed run, its answer, its calls that ran without error
 * and the ids and numbers its answer stated.
 */
export function draftGoldenCase(run: RunForDraft, source: GoldenCase | null, taken: ReadonlySet<string> = new Set()): GoldenDraft {
  const failed = run.terminationReason !== 'COMPLETED';
  if (source) {
    const record = draftCaseFromRun(run, taken);
    return {
      record: GoldenCaseRecordSchema.parse({
        ...record,
        category: source.category,
        expected_tools: source.expectedTools,
        trajectory_match_mode: source.trajectoryMatchMode,
        expected_facts: source.expectedFacts,
        forbidden_facts: source.forbiddenFacts,
        expected_termination: source.expectedTermination,
        must_not_call: source.mustNotCall,
        reference_answer: source.referenceAnswer,
        max_steps: source.maxSteps,
        tags: [...new Set([...source.tags, 'from_run'])],
        notes: `drafted from run ${run.id} of golden case ${source.id}`,
      }),
      basis: 'golden_case',
      warning: `Drafted from golden case ${source.id}'s expectations, not from this run${failed ? `, which ended ${run.terminationReason}` : ''}: edit them into the case you want.`,
    };
  }
  if (failed) {
    const record = draftCaseFromRun(run, taken);
    return {
      record: GoldenCaseRecordSchema.parse({ ...record, expected_tools: [], expected_facts: [], reference_answer: '' }),
      basis: 'failed_run',
      warning: `This run ended ${run.terminationReason}, not COMPLETED: its answer, its calls and its counters are not what a good run does, so the draft holds only the question. Write the expected answer, calls and facts.`,
    };
  }
  return { record: draftCaseFromRun(run, taken), basis: 'completed_run', warning: null };
}

/**
 * A golden case drafted from a run, for a person to edit before it is added: the question, the run's
 * answer as the expected one, the tool calls that ran without error (in order, exact match), the ids
 * and numbers the answer stated, and the run's category. The id is the run's case id (when it came
 * from one) or `R` and the run id's tail, suffixed so it is not taken in the set.
 */
export function draftCaseFromRun(run: RunForDraft, taken: ReadonlySet<string> = new Set()): GoldenCaseRecord {
  const base = run.caseId ? `${run.caseId}-r${run.id.slice(-6)}` : `R${run.id.slice(-8)}`;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  const calls = run.toolCalls.filter((c) => c.executed && !c.isError);
  return GoldenCaseRecordSchema.parse({
    id,
    category: run.category ?? 'from_run',
    query: run.query,
    expected_tools: calls.map((c) => ({ name: c.name, args: c.arguments !== null && typeof c.arguments === 'object' && !Array.isArray(c.arguments) ? c.arguments : {} })),
    trajectory_match_mode: 'in_order_subset',
    expected_facts: factsOf(run.finalAnswer),
    // What a good run of the question does, whatever this run did.
    expected_termination: 'COMPLETED',
    reference_answer: run.finalAnswer,
    tags: ['from_run'],
    notes: `drafted from run ${run.id}`,
  });
}

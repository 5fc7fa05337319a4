/**
 * Golden sets kept in the database (per tenant, versioned), in the course's golden JSONL format:
 * their names and addresses, drafting a case from a stored run (question, the run's answer to edit
 * into the expected one, its tool calls, the facts it stated), and one case as a JSONL line.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { GoldenCaseRecordSchema, parseGoldenText, type GoldenCaseRecord, type GoldenFile } from './golden';
import type { JsonValue } from '../harness/json';

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
  toolCalls: { name: string; arguments: JsonValue; isError: boolean; executed: boolean }[];
}

/** Facts an answer states that a checker can look for: SKU-like ids and numbers. */
export function factsOf(answer: string): string[] {
  const ids = answer.match(/\b[A-Z]{2,}-\d+[A-Z0-9-]*\b/g) ?? [];
  const numbers = (answer.match(/(?<![\w.-])\d+(?:\.\d+)?(?![\w-])/g) ?? []).filter((n) => n.length > 0);
  return [...new Set([...ids, ...numbers])].slice(0, 12);
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

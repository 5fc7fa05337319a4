/**
 * The golden set: one JSON object per non-blank line (SPEC.md §12.1). Every line is validated
 * before anything is scored, and every problem (file, line, field) is reported at once, so a
 * broken file is fixed in one pass rather than one error at a time.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { safeJsonParse, type JsonObject } from '../harness';
import { JsonValueSchema, TerminationReasonSchema, type TerminationReason } from '../harness';
import { EvalFileError, GoldenFileError, type GoldenIssue } from './errors';

export const TRAJECTORY_MATCH_MODES = ['exact', 'in_order_subset', 'any_order'] as const;
export type TrajectoryMatchMode = (typeof TRAJECTORY_MATCH_MODES)[number];

const ExpectedCallSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), JsonValueSchema).default({}),
});

/** One line of a golden file, in its on-disk (snake_case) form; unknown keys are refused. */
export const GoldenCaseRecordSchema = z.strictObject({
  id: z.string().min(1),
  category: z.string().min(1),
  query: z.string(),
  expected_tools: z.array(ExpectedCallSchema).default([]),
  trajectory_match_mode: z.enum(TRAJECTORY_MATCH_MODES).default('exact'),
  expected_facts: z.array(z.string()).default([]),
  forbidden_facts: z.array(z.string()).default([]),
  expected_termination: TerminationReasonSchema.default('COMPLETED'),
  must_not_call: z.array(z.string()).default([]),
  /** Informational: the fake model looks scripts up by case id, not by this field. */
  mock_script: z.string().nullable().default(null),
  reference_answer: z.string(),
  retrieval: z
    .strictObject({ reference_contexts: z.array(z.string()), reference: z.string() })
    .nullable()
    .default(null),
  max_steps: z.number().int().min(0).nullable().default(null),
  tags: z.array(z.string()).default([]),
  notes: z.string().nullable().default(null),
});
export type GoldenCaseRecord = z.infer<typeof GoldenCaseRecordSchema>;

/** An expected tool call: the name, and the arguments that must match (SPEC.md §12.4). */
export interface ExpectedCall {
  name: string;
  args: JsonObject;
}

/** A validated golden case. */
export interface GoldenCase {
  id: string;
  category: string;
  query: string;
  expectedTools: ExpectedCall[];
  trajectoryMatchMode: TrajectoryMatchMode;
  expectedFacts: string[];
  forbiddenFacts: string[];
  expectedTermination: TerminationReason;
  mustNotCall: string[];
  mockScript: string | null;
  referenceAnswer: string;
  retrieval: { referenceContexts: string[]; reference: string } | null;
  maxSteps: number | null;
  tags: string[];
  notes: string | null;
}

function toGoldenCase(r: GoldenCaseRecord): GoldenCase {
  return {
    id: r.id,
    category: r.category,
    query: r.query,
    expectedTools: r.expected_tools.map((t) => ({ name: t.name, args: t.args as JsonObject })),
    trajectoryMatchMode: r.trajectory_match_mode,
    expectedFacts: r.expected_facts,
    forbiddenFacts: r.forbidden_facts,
    expectedTermination: r.expected_termination,
    mustNotCall: r.must_not_call,
    mockScript: r.mock_script,
    referenceAnswer: r.reference_answer,
    retrieval: r.retrieval ? { referenceContexts: r.retrieval.reference_contexts, reference: r.retrieval.reference } : null,
    maxSteps: r.max_steps,
    tags: r.tags,
    notes: r.notes,
  };
}

/** A loaded golden file: its cases in file order and the sha256 of its bytes (recorded in reports). */
export interface GoldenFile {
  path: string;
  sha256: string;
  cases: GoldenCase[];
}

/** The value at a zod issue path inside the parsed line (undefined when absent). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function issuesOf(error: z.ZodError, input: unknown, file: string, line: number): GoldenIssue[] {
  return error.issues.flatMap((issue): GoldenIssue[] => {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        file,
        line,
        field: base ? `${base}.${key}` : key,
        message: 'unknown field',
      }));
    }
    const missing = issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    return [{ file, line, field: base || null, message: missing ? 'required field is missing' : issue.message }];
  });
}

/**
 * Parses golden JSONL text. Blank lines are skipped; every invalid line (bad JSON, a missing,
 * mistyped or unknown field, a repeated id) is collected and thrown as one GoldenFileError.
 */
export function parseGoldenText(text: string, file: string): GoldenCase[] {
  const issues: GoldenIssue[] = [];
  const cases: GoldenCase[] = [];
  const firstLineOfId = new Map<string, number>();
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (body.trim() === '') return;
    const json = safeJsonParse(body);
    if (!json.ok) {
      issues.push({ file, line, field: null, message: `not valid JSON (${json.error})` });
      return;
    }
    const parsed = GoldenCaseRecordSchema.safeParse(json.value);
    if (!parsed.success) {
      issues.push(...issuesOf(parsed.error, json.value, file, line));
      return;
    }
    const earlier = firstLineOfId.get(parsed.data.id);
    if (earlier !== undefined) {
      issues.push({ file, line, field: 'id', message: `duplicate id ${parsed.data.id} (first on line ${earlier})` });
      return;
    }
    firstLineOfId.set(parsed.data.id, line);
    cases.push(toGoldenCase(parsed.data));
  });
  if (issues.length === 0 && cases.length === 0) {
    issues.push({ file, line: 1, field: null, message: 'the golden file holds no cases' });
  }
  if (issues.length > 0) throw new GoldenFileError(file, issues);
  return cases;
}

/** Reads and validates a golden file; throws GoldenFileError listing every bad line. */
export function loadGoldenFile(path: string): GoldenFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new EvalFileError(path, 'cannot read the golden file', { cause: err });
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { path, sha256, cases: parseGoldenText(bytes.toString('utf8'), path) };
}

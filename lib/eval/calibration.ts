/**
 * Judge calibration: a judge grades the course's human-labelled items (judge_calibration/*.jsonl)
 * and its verdicts are compared with the labels. Each item is graded with rubric v2 for answer
 * correctness (the item's expected and forbidden facts) and for faithfulness (the item's context);
 * the judge's overall verdict passes when both pass, as the human label asks for an answer that is
 * both right and grounded. Agreement and Cohen's kappa are reported overall and per rubric; an item
 * the judge left unscored is counted apart and compared with nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { safeJsonParse } from '../harness';
import { SHARED_DATASET_DIR } from '../stockroom/testing/shared-dataset';
import { agreementStats, type AgreementStats } from './agreement';
import { EvalFileError } from './errors';
import { isScored, type Judge, type JudgeOutcome } from './judge';

export const CalibrationItemSchema = z.object({
  id: z.string().min(1),
  query: z.string(),
  answer: z.string(),
  context: z.string(),
  expected_facts: z.array(z.string()),
  forbidden_facts: z.array(z.string()),
  human_label: z.enum(['pass', 'fail']),
  human_score: z.number().int().min(1).max(5),
  rationale: z.string(),
  probe_group: z.string().nullable(),
  probe_role: z.string().nullable(),
});
export type CalibrationItem = z.infer<typeof CalibrationItemSchema>;

export interface CalibrationSet {
  file: string;
  /** The file name (e.g. calibration_v1.jsonl). */
  name: string;
  sha256: string;
  items: CalibrationItem[];
}

/** The calibration set used when none is named: STOCKROOM_CALIBRATION_SET, else the course dataset's calibration_v1.jsonl. */
export function defaultCalibrationFile(env: Record<string, string | undefined> = process.env): string {
  return env.STOCKROOM_CALIBRATION_SET?.trim() || path.join(SHARED_DATASET_DIR, 'judge_calibration', 'calibration_v1.jsonl');
}

/**
 * Whether the calibration set a calibration would use is there and valid, and if not, why not. Shown on
 * the Judge page, so it names the set by its file name only: the server's directories are nobody's business
 * in the browser (the CLI, which runs on the server, names the whole path).
 */
export type CalibrationSetStatus = { ok: true; name: string; items: number } | { ok: false; name: string; problem: string };

/**
 * Checks the default calibration set before anyone asks for a calibration, so the Judge page can say
 * up front what is missing instead of offering a button that can only fail (a fresh clone has no
 * course dataset beside it).
 */
export function calibrationSetStatus(env: Record<string, string | undefined> = process.env): CalibrationSetStatus {
  const file = defaultCalibrationFile(env);
  const name = path.basename(file);
  if (!existsSync(file)) return { ok: false, name, problem: `there is no calibration set ${name} on this server` };
  try {
    const set = loadCalibrationSet(file);
    return { ok: true, name: set.name, items: set.items.length };
  } catch (err) {
    // EvalFileError's message starts with the whole path; the page gets the file name and the line at fault.
    const message = err instanceof EvalFileError ? `${name}: ${err.message.slice(err.file.length + 2)}` : err instanceof Error ? err.message.split(file).join(name) : String(err);
    return { ok: false, name, problem: message };
  }
}

/** Reads and validates a calibration JSONL file; throws EvalFileError naming the line and field. */
export function loadCalibrationSet(file: string): CalibrationSet {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalFileError(file, 'cannot read the calibration set', { cause: err });
  }
  const items: CalibrationItem[] = [];
  const ids = new Set<string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const json = safeJsonParse(line);
    if (!json.ok) throw new EvalFileError(file, `line ${i + 1}: not valid JSON (${json.error})`);
    const parsed = CalibrationItemSchema.safeParse(json.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new EvalFileError(file, `line ${i + 1} field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    if (ids.has(parsed.data.id)) throw new EvalFileError(file, `line ${i + 1} field id: duplicate id ${parsed.data.id}`);
    ids.add(parsed.data.id);
    items.push(parsed.data);
  }
  if (items.length === 0) throw new EvalFileError(file, 'the calibration set has no items');
  return { file, name: path.basename(file), sha256: createHash('sha256').update(text, 'utf8').digest('hex'), items };
}

/** One item's grading: both rubrics' outcomes, the overall verdict (null when unscored), the human label. */
export interface CalibrationItemResult {
  id: string;
  human: 'pass' | 'fail';
  humanScore: number;
  probe: string | null;
  correctness: JudgeOutcome;
  faithfulness: JudgeOutcome;
  verdict: 'pass' | 'fail' | null;
}

export interface CalibrationResult {
  judge: string;
  rubricVersion: string;
  set: { name: string; sha256: string };
  items: CalibrationItemResult[];
  /** Items the judge left unscored (either rubric). */
  unscored: number;
  overall: AgreementStats;
  correctness: AgreementStats;
  faithfulness: AgreementStats;
}

function pairs(results: readonly CalibrationItemResult[], pick: (r: CalibrationItemResult) => JudgeOutcome | 'pass' | 'fail' | null) {
  return results.flatMap((r) => {
    const v = pick(r);
    if (v === null) return [];
    const judge = typeof v === 'string' ? v === 'pass' : isScored(v) ? v.passed : null;
    return judge === null ? [] : [{ judge, human: r.human === 'pass' }];
  });
}

export interface CalibrateOptions {
  judge: Judge;
  set: Pick<CalibrationSet, 'name' | 'sha256' | 'items'>;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, id: string) => void;
}

/** Grades every item in file order and compares the verdicts with the human labels. */
export async function calibrateJudge(options: CalibrateOptions): Promise<CalibrationResult> {
  const { judge, set } = options;
  const items: CalibrationItemResult[] = [];
  for (const item of set.items) {
    options.signal?.throwIfAborted();
    const base = { query: item.query, answer: item.answer, reference: null, context: item.context };
    const grading = { signal: options.signal };
    const correctness = await judge.grade(
      { ...base, expectedFacts: item.expected_facts, forbiddenFacts: item.forbidden_facts, rubric: 'answer_correctness' },
      grading,
    );
    const faithfulness = await judge.grade({ ...base, expectedFacts: [], forbiddenFacts: [], rubric: 'faithfulness' }, grading);
    const verdict = isScored(correctness) && isScored(faithfulness) ? (correctness.passed && faithfulness.passed ? 'pass' : 'fail') : null;
    items.push({
      id: item.id,
      human: item.human_label,
      humanScore: item.human_score,
      probe: item.probe_group ? `${item.probe_group}/${item.probe_role ?? ''}` : null,
      correctness,
      faithfulness,
      verdict,
    });
    options.onProgress?.(items.length, set.items.length, item.id);
  }
  return {
    judge: judge.name,
    rubricVersion: judge.rubricVersion,
    set: { name: set.name, sha256: set.sha256 },
    items,
    unscored: items.filter((r) => r.verdict === null).length,
    overall: agreementStats(pairs(items, (r) => r.verdict)),
    correctness: agreementStats(pairs(items, (r) => r.correctness)),
    faithfulness: agreementStats(pairs(items, (r) => r.faithfulness)),
  };
}

/** The human-readable summary `judge calibrate` prints. */
export function formatCalibration(r: CalibrationResult): string {
  const fmt = (s: AgreementStats) =>
    `agreement ${s.agreement ?? '—'} (${s.agreed}/${s.n}), Cohen's kappa ${s.kappa ?? 'undefined'}${s.kappaInterval ? ` [${s.kappaInterval.low}, ${s.kappaInterval.high}]` : ''}; judge pass/human pass ${s.confusion.tp}, pass/fail ${s.confusion.fp}, fail/pass ${s.confusion.fn}, fail/fail ${s.confusion.tn}`;
  const lines = [
    `judge ${r.judge} (rubric ${r.rubricVersion}) on ${r.set.name} (${r.items.length} items, sha256 ${r.set.sha256.slice(0, 12)})`,
    `  overall       ${fmt(r.overall)}`,
    `  correctness   ${fmt(r.correctness)}`,
    `  faithfulness  ${fmt(r.faithfulness)}`,
    `  unscored      ${r.unscored}`,
  ];
  const disagreements = r.items.filter((i) => i.verdict !== null && i.verdict !== i.human);
  if (disagreements.length > 0) lines.push('', 'disagreements (judge vs human):', ...disagreements.map((i) => `  ${i.id} judge ${i.verdict}, human ${i.human}`));
  const unscored = r.items.filter((i) => i.verdict === null);
  if (unscored.length > 0) {
    lines.push('', 'unscored:');
    for (const i of unscored) {
      const o = [i.correctness, i.faithfulness].find((x) => !isScored(x));
      lines.push(`  ${i.id} ${o && !isScored(o) ? `${o.unscored}: ${o.detail}` : ''}`);
    }
  }
  return lines.join('\n');
}

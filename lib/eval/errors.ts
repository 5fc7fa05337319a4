/**
 * The evaluation library's errors. `EvalError` is the one base class (itself a HarnessError so
 * callers that already catch harness errors see these too); subclasses carry structured fields.
 */
import { HarnessError } from '../harness';

/** Base class of every error thrown by lib/eval. */
export class EvalError extends HarnessError {}

/** One problem found in a golden file: where it is and what is wrong. */
export interface GoldenIssue {
  file: string;
  /** 1-based line number in the file. */
  line: number;
  /** Dotted path of the offending field (`expected_tools.0.name`), or null for a whole-line problem. */
  field: string | null;
  message: string;
}

/** A golden file failed validation; `issues` lists every bad line, not only the first. */
export class GoldenFileError extends EvalError {
  readonly file: string;
  readonly issues: readonly GoldenIssue[];
  constructor(file: string, issues: readonly GoldenIssue[]) {
    const lines = issues.map((i) => `  ${i.file}:${i.line}${i.field ? ` field ${i.field}` : ''}: ${i.message}`);
    super('golden_invalid', `${file}: ${issues.length} problem(s) in the golden file\n${lines.join('\n')}`);
    this.file = file;
    this.issues = issues;
  }
}

/** A report, thresholds or baseline file could not be read or failed its schema. */
export class EvalFileError extends EvalError {
  readonly file: string;
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super('eval_file_invalid', `${file}: ${message}`, options);
    this.file = file;
  }
}

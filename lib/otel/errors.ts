/** Errors of the trace export and import; each names the field or limit at fault. */
import { HarnessError } from '../harness/browser';

/** An import payload was refused: `field` is the path into it (or the limit) that is wrong. */
export class TraceImportError extends HarnessError {
  readonly field: string;
  /** HTTP status for the receiver: 400 malformed, 413 too large, 415 unsupported media type. */
  readonly status: 400 | 413 | 415;
  constructor(field: string, message: string, status: 400 | 413 | 415 = 400) {
    super('trace_invalid', message);
    this.field = field;
    this.status = status;
  }
}

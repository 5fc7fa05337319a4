/**
 * The run service's refusals: errors whose message the caller may see verbatim (the boundary's
 * error policy, lib/boundary/to-failure.ts, keeps their message and code). Anything else thrown
 * while preparing or running a run is logged and reported as a generic failure.
 */
export class RunError extends Error {
  /** A stable code: `invalid_input`, `governance_required`, `failed_after_write`, … */
  readonly code: string;
  readonly fieldErrors?: Record<string, string[]>;
  constructor(code: string, message: string, options?: { fieldErrors?: Record<string, string[]>; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = new.target.name;
    this.code = code;
    this.fieldErrors = options?.fieldErrors;
  }
}

/** Input that passed the schema but names something that does not exist (an unknown dataset or case). */
export class InputError extends RunError {
  constructor(field: string, message: string) {
    super('invalid_input', message, { fieldErrors: { [field]: [message] } });
  }
}

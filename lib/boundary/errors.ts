/**
 * Errors an action or route may show the user verbatim, with a stable code. Anything else is
 * logged on the server and reported to the browser as a generic failure (to-failure.ts), so
 * internals (paths, SQL, stacks) never leak.
 */
export class ActionError extends Error {
  readonly code: string;
  readonly fieldErrors?: Record<string, string[]>;
  constructor(code: string, message: string, options?: { fieldErrors?: Record<string, string[]>; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = new.target.name;
    this.code = code;
    this.fieldErrors = options?.fieldErrors;
  }
}

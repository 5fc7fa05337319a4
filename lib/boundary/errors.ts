/**
 * Errors an action may show the user verbatim. Anything else is logged on the server and reported
 * to the browser as a generic failure, so internals (paths, SQL, stacks) never leak.
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

/** The caller is signed in but lacks the role (or tenant) this needs. */
export class ForbiddenError extends ActionError {
  constructor(message = 'You are not allowed to do this.') {
    super('forbidden', message);
  }
}

/** There is no valid session: the caller must sign in first. */
export class UnauthenticatedError extends ActionError {
  constructor(message = 'Sign in to do this.') {
    super('unauthenticated', message);
  }
}

/** Input that passed the schema but names something that does not exist (an unknown dataset or case). */
export class InputError extends ActionError {
  constructor(field: string, message: string) {
    super('invalid_input', message, { fieldErrors: { [field]: [message] } });
  }
}

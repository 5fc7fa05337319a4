/** One error base class for governance; subclasses carry a stable code and structured fields. */
export class GovernanceError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The policy file is missing, unreadable or does not match its schema. */
export class PolicyFileError extends GovernanceError {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('policy_file', `${file}: ${message}`, options);
  }
}

/** A value cannot be canonicalised (undefined, a function, a non-finite number, a cycle). */
export class CanonicalJsonError extends GovernanceError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super('canonical_json', `${path}: ${message}`);
  }
}

/** An effect-journal entry was asked to move along an edge the state machine does not have. */
export class JournalTransitionError extends GovernanceError {
  constructor(
    readonly operationKey: string,
    readonly from: string,
    readonly to: string,
  ) {
    super('journal_transition', `operation ${operationKey}: ${from} → ${to} is not a journal transition`);
  }
}

/** A compare-and-set lost: someone else advanced the state version first. */
export class ConflictError extends GovernanceError {
  constructor(
    readonly entity: string,
    readonly key: string,
    message: string,
  ) {
    super('conflict', message);
  }
}

/** One error base class for the data layer; subclasses carry a stable code and structured fields. */
export class DbError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A must-succeed lookup (`getXOrThrow`) found nothing. */
export class NotFoundError extends DbError {
  readonly entity: string;
  readonly key: string;
  constructor(entity: string, key: string) {
    super('not_found', `${entity} ${key} not found`);
    this.entity = entity;
    this.key = key;
  }
}

/** An argument the data layer refuses (bad cursor, bad range, unknown sort key, bad DATABASE_URL). */
export class InvalidInputError extends DbError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('invalid_input', message);
    this.field = field;
  }
}


/**
 * Refusals of who is calling: no valid session, or a role (or tenant) the caller lacks. The
 * boundary's error policy (lib/boundary/to-failure.ts) answers them 401 and 403 with their message.
 */
export class AuthError extends Error {
  /** `unauthenticated` or `forbidden`. */
  readonly code: 'unauthenticated' | 'forbidden';
  constructor(code: AuthError['code'], message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The caller is signed in but lacks the role (or tenant) this needs. */
export class ForbiddenError extends AuthError {
  constructor(message = 'You are not allowed to do this.') {
    super('forbidden', message);
  }
}

/** There is no valid session: the caller must sign in first. */
export class UnauthenticatedError extends AuthError {
  constructor(message = 'Sign in to do this.') {
    super('unauthenticated', message);
  }
}

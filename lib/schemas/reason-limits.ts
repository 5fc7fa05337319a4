/** Fewest characters a reviewer's reason may have (its own module: client code reads it without the governance library). */
export const MIN_REASON_CHARS = 3;

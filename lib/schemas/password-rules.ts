/** Password rules for dashboard users, shared by better-auth's configuration and the input schemas. */

/** Minimum password length for dashboard users. */
export const MIN_PASSWORD_LENGTH = 12;
/** Maximum password length (better-auth's default cap). */
export const MAX_PASSWORD_LENGTH = 128;

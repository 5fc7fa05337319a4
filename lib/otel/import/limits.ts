/** Bounds on what one import may hold (a payload beyond them is refused whole, nothing stored). */

/** Largest OTLP/HTTP request body the receiver reads (bytes); OTLP_MAX_BODY_BYTES overrides it. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Most spans one import (request or file) may carry. */
export const MAX_SPANS_PER_IMPORT = 200_000;
/** Most attributes one span may carry. */
export const MAX_ATTRIBUTES_PER_SPAN = 1_000;
/** Longest attribute string kept (message content beyond this is cut, marked with an ellipsis). */
export const MAX_ATTRIBUTE_CHARS = 1_000_000;

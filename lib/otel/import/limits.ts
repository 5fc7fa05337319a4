/** Bounds on what one import may hold (a payload beyond them is refused whole, nothing stored). */
import { ConfigError } from '../../harness';

/** Largest OTLP/HTTP request body the receiver reads (bytes); OTLP_MAX_BODY_BYTES overrides it. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Most spans one import (request or file) may carry. */
export const MAX_SPANS_PER_IMPORT = 200_000;
/** Most attributes one span may carry. */
export const MAX_ATTRIBUTES_PER_SPAN = 1_000;
/** Longest attribute string kept (message content beyond this is cut, marked with an ellipsis). */
export const MAX_ATTRIBUTE_CHARS = 1_000_000;

/** Variable naming how long a trace without its root span may be quiet before its run is finished. */
export const TRACE_QUIET_VAR = 'STOCKROOM_OTLP_TRACE_QUIET_SECONDS';
/** Default quiet time (s): longer than any exporter's batch delay and retry schedule (OTLP: 5 s, ~1 min). */
export const DEFAULT_TRACE_QUIET_SECONDS = 300;

/** The quiet time in ms, from STOCKROOM_OTLP_TRACE_QUIET_SECONDS (whole seconds, 1–86400). */
export function traceQuietMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env[TRACE_QUIET_VAR]?.trim();
  if (!raw) return DEFAULT_TRACE_QUIET_SECONDS * 1000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 86_400) {
    throw new ConfigError(TRACE_QUIET_VAR, `${TRACE_QUIET_VAR} must be whole seconds between 1 and 86400; got '${raw}'`);
  }
  return value * 1000;
}

/** Longest agent name kept (a longer one is cut, and the cut named on the run). */
export const MAX_AGENT_NAME_CHARS = 200;
/** Deepest agent nesting kept as agents; agents below it are folded into their ancestor at this depth (named on the run). */
export const MAX_AGENT_DEPTH = 100;

/** Bounds on every wait the MCP executor makes, so a dead server is an error, never a hang. */

/** Spawn plus handshake; a tsx child takes ~0.5 s on an idle machine, far more under load. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** One tools/list or tools/call round trip. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Terminating a session and closing a transport at shutdown. */
export const CLOSE_TIMEOUT_MS = 3_000;
/** Characters of a stdio child's stderr kept for error messages. */
export const STDERR_TAIL_CHARS = 2_000;

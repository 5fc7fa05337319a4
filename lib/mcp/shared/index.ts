/**
 * The door of what the MCP server and client both speak: the Stockroom protocol's private keys and
 * tools, the per-session weakness request, and where the server's files are for spawning a stdio
 * child. Any new export added here becomes public API to `lib/mcp/server` and `lib/mcp/client`.
 */
export {
  APPROVAL_META_KEY,
  encodeToolValue,
  HIDDEN_META_KEY,
  OPERATION_KEY_META_KEY,
  readWeaknessCapability,
  RESET_TOOL_NAME,
  SERVER_WEAKNESSES,
  STOCKROOM_SERVER_INFO,
  WEAKNESS_CAPABILITY_KEY,
  weaknessCapability,
  type WeaknessCapability,
} from './protocol';
export { answerLookup, LOOKUP_TOOL, LOOKUP_TOOL_NAME, lookupOverMcp } from './operation-lookup';
export { PeekingTransport, requestedWeaknessCapability, requestedWeaknesses } from './session-weaknesses';
export { REPO_ROOT, STDIO_ENTRY } from './paths';

/**
 * `stockroom mcp-server --transport stdio|http`: serves the Stockroom inventory tools over MCP until
 * stopped. Over stdio every log line goes to stderr (stdout carries the protocol). An MCP client
 * should launch it as `npx tsx cli/stockroom.ts mcp-server` or `npm run -s stockroom -- mcp-server`:
 * without -s, npm prints its script banner on stdout, which is not JSON-RPC.
 */
import type { FlagSpec } from '../args';
import type { CliCommand } from '../command';
import { runMcpServer } from '../../lib/mcp/serve';

/** For `--help`; the flags themselves are parsed and validated by lib/mcp/server-options. */
const FLAGS: FlagSpec = {
  transport: { type: 'string', description: 'stdio (default) or http', values: ['stdio', 'http'] },
  dataset: { type: 'string', description: 'dataset directory (default: data/, or STOCKROOM_DATASET)' },
  weaknesses: { type: 'string', description: 'comma-separated weakness flags' },
  port: { type: 'string', description: 'HTTP port (default 8765; 0 picks a free one)' },
  host: { type: 'string', description: 'HTTP bind address (default 127.0.0.1)' },
  'allowed-hosts': { type: 'string', description: 'comma-separated Host names the HTTP server accepts' },
  policy: { type: 'string', description: 'policy file every write goes through (without it, writes are refused)' },
  'session-weaknesses': { type: 'boolean', description: 'let HTTP clients choose their weakness flags per session (?weaknesses=)' },
  'session-idle-minutes': { type: 'string', description: 'close HTTP sessions idle this long (default 5)' },
};

export const command: CliCommand = {
  name: 'mcp-server',
  summary:
    'Serve the Stockroom inventory tools over MCP (stdio or streamable HTTP). Reads are open; writes are refused unless started with --policy FILE (e.g. --policy config/policy.json), when each write goes through that policy, a journal and evidence. --session-weaknesses lets HTTP clients pick their flags with ?weaknesses=; idle HTTP sessions are closed after --session-idle-minutes (5).',
  usage:
    'mcp-server [--transport stdio|http] [--dataset DIR] [--weaknesses a,b] [--policy FILE] [--session-weaknesses] [--session-idle-minutes 5] [--port 8765] [--host 127.0.0.1] [--allowed-hosts h1,h2]',
  flags: FLAGS,
  run: (argv) => runMcpServer(argv),
};

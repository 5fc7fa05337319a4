/**
 * `stockroom mcp-server --transport stdio|http`: serves the Stockroom inventory tools over MCP until
 * stopped. Over stdio every log line goes to stderr (stdout carries the protocol). An MCP client
 * should launch it as `npx tsx cli/stockroom.ts mcp-server` or `npm run -s stockroom -- mcp-server`:
 * without -s, npm prints its script banner on stdout, which is not JSON-RPC.
 */
import type { FlagSpec } from '../args';
import type { CliCommand } from '../command';
import { runMcpServer } from '../../lib/mcp/server/serve';

/** For `--help`; the flags themselves are parsed and validated by lib/mcp/server-options. */
const FLAGS: FlagSpec = {
  transport: { type: 'string', description: 'stdio (default) or http', values: ['stdio', 'http'] },
  dataset: { type: 'string', description: 'dataset directory (default: data/, or STOCKROOM_DATASET)' },
  weaknesses: { type: 'string', description: 'comma-separated weakness flags' },
  port: { type: 'string', description: 'HTTP port (default 8765; 0 picks a free one)' },
  host: { type: 'string', description: 'HTTP bind address (default 127.0.0.1)' },
  'allowed-hosts': { type: 'string', description: 'comma-separated Host names the HTTP server accepts' },
  policy: { type: 'string', description: 'governance policy file writes go through (without it every write is refused), e.g. config/policy.json' },
  'session-weaknesses': {
    type: 'boolean',
    description: 'let each client choose its weakness flags: over HTTP with ?weaknesses=, over stdio in its initialize request (capabilities.experimental["stockroom.dev/weaknesses"].requested)',
  },
  'session-idle-minutes': { type: 'string', description: 'close an HTTP session unused this long (default 5)' },
  approvals: {
    type: 'boolean',
    description: 'with --policy: keep the journal and evidence in the dashboard database and queue writes that need approval for its reviewers',
  },
  actor: { type: 'string', description: 'who the MCP caller acts as in approvals (default mcp-agent)' },
  'conformance-tools': { type: 'boolean', description: "also serve the MCP conformance suite's test tools (testing only; never offered to a model)" },
};

/** The dashboard database's governance storage, opened (and migrated) only for --approvals. */
async function openDatabaseGovernance() {
  const { openMigratedDatabase } = await import('../database');
  const { prismaGovernanceStore, prismaMcpApprovalStore } = await import('../../lib/db/governance/governance-store');
  const db = await openMigratedDatabase();
  const store = prismaGovernanceStore(db.prisma);
  return { journal: store.journal, evidence: store.evidence, approvals: prismaMcpApprovalStore(db) };
}

export const command: CliCommand = {
  name: 'mcp-server',
  summary:
    'Serve the Stockroom inventory tools over MCP (stdio or streamable HTTP). Reads are open; writes are refused unless started with --policy FILE (e.g. --policy config/policy.json), when each write goes through that policy, a journal and evidence; with --approvals a write that needs approval waits for a dashboard reviewer (poll approval_status, then retry the identical call). --session-weaknesses lets clients pick their flags (HTTP: ?weaknesses=; stdio: in the initialize request); idle HTTP sessions are closed after --session-idle-minutes (5).',
  usage:
    'mcp-server [--transport stdio|http] [--dataset DIR] [--weaknesses a,b] [--policy FILE] [--session-weaknesses] [--session-idle-minutes 5] [--approvals] [--actor NAME] [--conformance-tools] [--port 8765] [--host 127.0.0.1] [--allowed-hosts h1,h2]',
  flags: FLAGS,
  run: (argv) => runMcpServer(argv, { openDatabaseGovernance }),
};

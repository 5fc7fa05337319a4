/**
 * The program a stdio executor spawns (`node --import tsx lib/mcp/server/stdio-entry.ts --dataset DIR
 * [--weaknesses …]`): the server alone, without the CLI dispatcher, so the child starts quickly.
 */
import { runMcpServer } from './serve';

// The executor's own child: it offers the private reset, and the harness governs its writes.
process.exit(await runMcpServer(['--transport', 'stdio', ...process.argv.slice(2)], { harnessChild: true }));

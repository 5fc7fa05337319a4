/**
 * `stockroom tools [--mcp-server ID | --mcp-command "CMD ARGS" | --mcp-url URL --mcp-header "N: v"…] [--json]`:
 * lists a tool server's tools — name, title, description, input schema, annotations — as the
 * harness would see them. Without a server flag it lists the Stockroom server's own tools.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { datasetFromArgs, HARNESS_FLAGS, toolServerFromArgs } from '../common';
import { createExecutor } from '../../lib/mcp/client/create-executor';
import type { McpToolExecutor } from '../../lib/mcp/client/mcp-executor';

const FLAGS = {
  dataset: HARNESS_FLAGS.dataset!,
  'mcp-server': HARNESS_FLAGS['mcp-server']!,
  'mcp-command': HARNESS_FLAGS['mcp-command']!,
  'mcp-url': HARNESS_FLAGS['mcp-url']!,
  'mcp-header': HARNESS_FLAGS['mcp-header']!,
  json: { type: 'boolean', description: 'print the tools as JSON' },
} as const;

function formatTool(tool: Tool): string {
  const lines = [`${tool.name}${tool.title ? ` — ${tool.title}` : ''}`];
  if (tool.description) lines.push(`  ${tool.description.replace(/\n/g, '\n  ')}`);
  lines.push(`  input: ${JSON.stringify(tool.inputSchema)}`);
  if (tool.outputSchema) lines.push(`  output: ${JSON.stringify(tool.outputSchema)}`);
  if (tool.annotations) lines.push(`  annotations: ${JSON.stringify(tool.annotations)}`);
  return lines.join('\n');
}

export const command: CliCommand = {
  name: 'tools',
  summary: "list a tool server's tools: name, title, description, input schema, annotations",
  flags: FLAGS,
  usage: 'tools [--mcp-server ID | --mcp-command "CMD ARGS" | --mcp-url URL [--mcp-header "Name: value"]…] [--dataset DIR] [--json]',
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected argument '${args.positionals[0]}'`);
    const server = await toolServerFromArgs(args);
    const transport = server.mcpUrl !== undefined ? 'mcp-http' : server.mcpCommand !== undefined ? 'mcp-stdio' : 'mcp-memory';
    const executor = (await createExecutor({ transport, dataset: datasetFromArgs(args), weaknesses: [], ...server })) as McpToolExecutor;
    try {
      const tools = await executor.listTools();
      if (args.flags.json) {
        process.stdout.write(JSON.stringify({ server: executor.serverInfo() ?? null, target: stringFlag(args, 'mcp-server') ?? executor.target, tools }, null, 2) + '\n');
      } else {
        const info = executor.serverInfo();
        process.stdout.write(`${info ? `${info.name} ${info.version}` : 'MCP server'} (${executor.target}): ${tools.length} tools\n\n`);
        process.stdout.write(tools.map(formatTool).join('\n\n') + '\n');
      }
      return 0;
    } finally {
      await executor.close();
    }
  },
};

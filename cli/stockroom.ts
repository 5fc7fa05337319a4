/**
 * `npm run stockroom -- <command> …`: the command-line face of the harness. Errors that come from
 * bad input (flags, configuration, dataset files) print one clear line and exit 2.
 */
import { HarnessError } from '../lib/harness/errors';
import { CliUsageError, type CliCommand } from './command';

const COMMANDS: Record<string, () => Promise<{ command: CliCommand }>> = {
  run: () => import('./commands/run'),
  config: () => import('./commands/config'),
  eval: () => import('./commands/eval'),
  matrix: () => import('./commands/matrix'),
  gate: () => import('./commands/gate'),
  'mcp-server': () => import('./commands/mcp-server'),
  admin: () => import('./commands/admin'),
  audit: () => import('./commands/audit'),
  import: () => import('./commands/import'),
  export: () => import('./commands/export'),
  'otlp-token': () => import('./commands/otlp-token'),
};

async function help(): Promise<string> {
  const lines = ['usage: npm run stockroom -- <command> [flags]', '', 'commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) {
    try {
      const { command } = await load();
      lines.push(`  ${command.usage}`, `      ${command.summary}`);
    } catch {
      lines.push(`  ${name}`);
    }
  }
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write((await help()) + '\n');
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`unknown command '${name}'; allowed commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return 2;
  }
  const { command } = await load();
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof CliUsageError) {
      process.stderr.write(`stockroom ${name}: ${err.message}\nusage: npm run stockroom -- ${command.usage}\n`);
      return 2;
    }
    if (err instanceof HarnessError) {
      process.stderr.write(`stockroom ${name}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

/** Sends queued OpenTelemetry spans before the process exits (a no-op without an endpoint). */
async function flushTraces(): Promise<void> {
  const { flushRunTraces } = await import('../lib/otel/run-exporter');
  await flushRunTraces();
}

main(process.argv.slice(2))
  .finally(flushTraces)
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`stockroom: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );

/**
 * `npm run stockroom -- <command> …`: the command-line face of the harness. Every command answers
 * `--help` / `-h` with its usage and flags (exit 0). Errors that come from bad input (flags,
 * configuration, dataset files, DATABASE_URL) print one clear line and exit 2; anything unexpected
 * prints one line too (its stack only with STOCKROOM_DEBUG=1: no stack traces to users).
 */
import { pathToFileURL } from 'node:url';
import { InvalidInputError } from '../lib/db/core/errors';
import { asDatabaseUnavailable } from '../lib/db/core/unavailable';
import { HarnessError } from '../lib/harness/errors';
import { CliUsageError, formatFlags, wantsHelp } from './args';
import { EXIT_DB_UNAVAILABLE } from './exit-codes';
import { EnvironmentError, environmentProblems } from '../lib/startup/env';
import type { CliCommand } from './command';

export const COMMANDS: Record<string, () => Promise<{ command: CliCommand }>> = {
  run: () => import('./commands/run'),
  config: () => import('./commands/config'),
  eval: () => import('./commands/eval'),
  matrix: () => import('./commands/matrix'),
  suite: () => import('./commands/suite'),
  jobs: () => import('./commands/jobs'),
  gate: () => import('./commands/gate'),
  'mcp-server': () => import('./commands/mcp-server'),
  user: () => import('./commands/user'),
  tools: () => import('./commands/tools'),
  'model-server': () => import('./commands/model-server'),
  admin: () => import('./commands/admin'),
  audit: () => import('./commands/audit'),
  erase: () => import('./commands/erase'),
  redact: () => import('./commands/redact'),
  retention: () => import('./commands/retention'),
  import: () => import('./commands/import'),
  export: () => import('./commands/export'),
  'otlp-token': () => import('./commands/otlp-token'),
  judge: () => import('./commands/judge'),
};

/** `npm run stockroom -- --help`: every command's usage and summary (docs/reference/cli.md prints it too). */
export async function help(): Promise<string> {
  const lines = ['usage: npm run stockroom -- <command> [flags]   (every command answers --help)', '', 'commands:'];
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

/** `npm run stockroom -- <command> --help` (docs/reference/cli.md is generated from it). */
export function commandHelp(command: CliCommand): string {
  return [`usage: npm run stockroom -- ${command.usage}`, '', command.summary, '', 'flags:', formatFlags(command.flags ?? {})].join('\n');
}

/** Runs one invocation and returns its exit code; unexpected errors are thrown to the caller. */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  // The environment is read once, before anything else: a bad value stops every command, naming the variable.
  const bad = environmentProblems(env, 'cli');
  if (bad.length > 0) {
    process.stderr.write(`stockroom: ${new EnvironmentError(bad).message}\n`);
    return 2;
  }
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
  if (wantsHelp(rest)) {
    process.stdout.write(commandHelp(command) + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof CliUsageError) {
      process.stderr.write(`stockroom ${name}: ${err.message}\nusage: npm run stockroom -- ${command.usage}\n`);
      return 2;
    }
    if (err instanceof Error && err.name === 'AbortError') {
      process.stderr.write(`stockroom ${name}: cancelled\n`);
      return 130;
    }
    if (err instanceof HarnessError || err instanceof InvalidInputError) {
      process.stderr.write(`stockroom ${name}: ${err.message}\n`);
      return 2;
    }
    // A passing database failure: say which, and that running the command again is safe.
    const down = asDatabaseUnavailable(err);
    if (down) {
      process.stderr.write(`stockroom ${name}: ${down.message} Nothing was written half-way; run the command again once it is resolved.\n`);
      return EXIT_DB_UNAVAILABLE;
    }
    throw err;
  }
}

/** Sends queued OpenTelemetry spans before the process exits (a no-op without an endpoint). */
async function flushTraces(): Promise<void> {
  const { flushRunTraces } = await import('../lib/otel/run-exporter');
  await flushRunTraces();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2))
    .finally(flushTraces)
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err: unknown) => {
        const debug = process.env.STOCKROOM_DEBUG === '1';
        const text = err instanceof Error ? (debug ? (err.stack ?? err.message) : err.message) : String(err);
        process.stderr.write(`stockroom: ${text}${debug ? '' : '\n(set STOCKROOM_DEBUG=1 for the stack trace)'}\n`);
        process.exitCode = 1;
      },
    );
}

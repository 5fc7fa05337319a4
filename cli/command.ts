/** A `npm run stockroom -- <name> …` subcommand. `run` returns the process exit code. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class CliUsageError extends Error {}

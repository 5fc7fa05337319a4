import type { FlagSpec } from './args';

/** A `npm run stockroom -- <name> …` subcommand. `run` returns the process exit code. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** The flags `run` accepts, listed by `--help` (every command answers `--help` and `-h`). */
  flags?: FlagSpec;
  run(argv: string[]): Promise<number>;
}

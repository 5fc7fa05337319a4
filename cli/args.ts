/**
 * A small flag parser: `--name value`, `--name=value` and boolean `--flag`, validated against a
 * declared spec. Unknown flags and missing values are usage errors that name the flag.
 */
import { CliUsageError } from './command';

export type FlagSpec = Record<string, { type: 'string' | 'boolean'; description: string; values?: readonly string[]; multiple?: boolean }>;

export interface ParsedArgs {
  flags: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags: ParsedArgs['flags'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const def = spec[name];
    if (!def) {
      const known = Object.keys(spec).map((k) => `--${k}`).join(', ');
      throw new CliUsageError(`unknown flag --${name}; allowed flags: ${known || '(none)'}`);
    }
    if (def.type === 'boolean') {
      if (eq !== -1) throw new CliUsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new CliUsageError(`--${name} needs a value (${def.description})`);
    if (def.values && !def.values.includes(value)) {
      throw new CliUsageError(`--${name} must be one of ${def.values.join(', ')}; got '${value}'`);
    }
    if (def.multiple) {
      const seen = flags[name];
      flags[name] = [...(Array.isArray(seen) ? seen : []), value];
    } else {
      flags[name] = value;
    }
  }
  return { flags, positionals };
}

/** Every value of a repeatable flag, in order (none: an empty list). */
export function stringListFlag(args: ParsedArgs, name: string): string[] {
  const v = args.flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

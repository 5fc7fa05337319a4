/**
 * The CLI's flag parser: node's `util.parseArgs` behind the small spec every command declares
 * (`{ type, description, values?, multiple? }`). `--name value`, `--name=value`, boolean `--flag`,
 * and repeatable flags (`multiple: true`). Unknown flags, missing values and values outside `values`
 * are usage errors that name the flag.
 */
import { parseArgs as nodeParseArgs } from 'node:util';

/** A usage error: printed with the command's usage, exit code 2. */
export class CliUsageError extends Error {}

export interface FlagDef {
  type: 'string' | 'boolean';
  description: string;
  /** The allowed values of a string flag. */
  values?: readonly string[];
  /** The flag may be given more than once; its value is then every occurrence, in order. */
  multiple?: boolean;
}

export type FlagSpec = Record<string, FlagDef>;

export interface ParsedArgs {
  flags: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** Every command answers these with its usage and flags (handled by cli/stockroom.ts). */
export const HELP_FLAGS = ['--help', '-h'] as const;

/** True when argv asks for help (before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => (HELP_FLAGS as readonly string[]).includes(a));
}

const allowed = (spec: FlagSpec) => Object.keys(spec).map((k) => `--${k}`).join(', ') || '(none)';

/** The flag an error message of util.parseArgs is about, e.g. `'--max-steps <value>'` → `max-steps`. */
function flagIn(message: string): string {
  return /'-{1,2}([^' <]+)/.exec(message)?.[1] ?? '?';
}

/** util.parseArgs's errors, in our words (the flag named first). */
function usageError(err: unknown, spec: FlagSpec): CliUsageError {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  const name = flagIn(message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const shown = /'(-[^']*)'/.exec(message)?.[1] ?? `--${name}`;
    return new CliUsageError(`unknown flag ${shown}; allowed flags: ${allowed(spec)}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const def = spec[name];
    if (def?.type === 'boolean') return new CliUsageError(`--${name} takes no value`);
    return new CliUsageError(`--${name} needs a value (${def?.description ?? 'see usage'}); write --${name}=VALUE for a value that starts with '-'`);
  }
  return new CliUsageError(message);
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, def] of Object.entries(spec)) options[name] = def.multiple ? { type: def.type, multiple: true } : { type: def.type };
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (err) {
    throw usageError(err, spec);
  }
  const flags: ParsedArgs['flags'] = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    const def = spec[name]!;
    if (def.values && def.type === 'string') {
      for (const v of ([] as unknown[]).concat(value)) {
        if (!def.values.includes(v as string)) throw new CliUsageError(`--${name} must be one of ${def.values.join(', ')}; got '${String(v)}'`);
      }
    }
    flags[name] = value as ParsedArgs['flags'][string];
  }
  return { flags, positionals: parsed.positionals };
}

/** A string flag's value (the last one given, for a repeatable flag). */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  if (Array.isArray(v)) {
    const last = v[v.length - 1];
    return typeof last === 'string' ? last : undefined;
  }
  return typeof v === 'string' ? v : undefined;
}

/** Every value of a repeatable string flag, in order (empty when absent). */
export function stringsFlag(args: ParsedArgs, name: string): string[] {
  const v = args.flags[name];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}

/** The usage text of a command's flags, one per line, for `--help`. */
export function formatFlags(spec: FlagSpec): string {
  const rows = Object.entries(spec).map(([name, def]) => {
    const head = `--${name}${def.type === 'string' ? ' VALUE' : ''}`;
    const extra = [def.values ? `one of ${def.values.join(', ')}` : null, def.multiple ? 'repeatable' : null].filter(Boolean).join('; ');
    return { head, text: extra ? `${def.description} (${extra})` : def.description };
  });
  rows.push({ head: '-h, --help', text: 'print this help' });
  const width = Math.max(...rows.map((r) => r.head.length));
  return rows.map((r) => `  ${r.head.padEnd(width)}  ${r.text}`).join('\n');
}

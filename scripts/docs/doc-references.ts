/**
 * What the documentation names that the code must have: every `--flag` of a command line (`npm run
 * stockroom -- <command> …`, `npm run worker -- …`, `npm run bench -- …`) is a flag that command declares,
 * every other `--flag` is declared by some command, and every `STOCKROOM_*` and `OTEL_*` variable is one the
 * code reads. scripts/docs/docs.test.ts runs these over README.md and docs/.
 */
import fs from 'node:fs';
import { COMMANDS } from '../../cli/stockroom';
import { WORKER_FLAGS } from '../../cli/worker-help';
import { ENV_KEYS } from '../../lib/harness/config';
import { ENV_VARIABLES } from '../../lib/startup/env';
import { SCREENSHOT_FLAGS } from './screenshot-first-demo';

/** Variables the documentation names that are not the application's configuration, each with why. */
export const DOCUMENTED_NOT_CONFIGURATION: Record<string, string> = {
  STOCKROOM_TEST_PG: "the test suites' PostgreSQL server (lib/db/testing/test-databases.ts), read by the tests only",
};

/** The flags each program declares (without the dashes); `help` everywhere. */
export async function declaredFlags(): Promise<Map<string, Set<string>>> {
  const programs = new Map<string, Set<string>>();
  for (const [name, load] of Object.entries(COMMANDS)) {
    const { command } = await load();
    programs.set(name, new Set([...Object.keys(command.flags ?? {}), 'help']));
  }
  programs.set('worker', new Set([...WORKER_FLAGS, 'help']));
  programs.set('screenshot-first-demo', new Set(Object.keys(SCREENSHOT_FLAGS)));
  // bench/bench.ts runs when loaded, so its flags are read from the spec it hands to parseArgs.
  const bench = fs.readFileSync('bench/bench.ts', 'utf8');
  const spec = /parseArgs\(process\.argv\.slice\(2\), \{([\s\S]*?)\n {2}\}\);/.exec(bench)?.[1] ?? '';
  programs.set('bench', new Set([...spec.matchAll(/^\s+([a-z][a-z0-9-]*): \{ type:/gm)].map((m) => m[1]!).concat('help')));
  return programs;
}

const FLAG = /(?<![\w-])--([a-z][a-z0-9-]*)/g;
/** `npm run stockroom -- run`, `stockroom import`, `npm run worker --`, `npm run bench --`, the screenshot script. */
const INVOCATION = /(?:npm run stockroom --|stockroom) ([a-z][a-z-]*)|npm run (worker|bench)\b|scripts\/docs\/(screenshot-first-demo)\.ts/g;
/** Other programs the documentation shows (a systemd unit, package managers): their flags are theirs. */
const FOREIGN = /\b(?:systemctl|apt-get|npm (?:ci|install|rebuild))\b.*$/;

/** The flags `text` names that the program it names (or, outside a command line, every program) does not declare. */
export function unknownFlags(text: string, programs: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const any = new Set([...programs.values()].flatMap((s) => [...s]));
  // A shell line continued with a backslash is one command line.
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n');
  for (const line of lines) {
    const checked = new Set<number>();
    for (const m of line.matchAll(INVOCATION)) {
      const program = m[1] ?? m[2] ?? m[3]!;
      const flags = programs.get(program);
      if (!flags) continue; // "stockroom" as a word, or an unknown command (the CLI's own test covers the list)
      // The command line runs to its comment, the end of its inline code, or the end of the line.
      const start = m.index + m[0].length;
      const rest = line.slice(start);
      const end = Math.min(...[rest.indexOf(' # '), rest.indexOf('`')].filter((i) => i >= 0), rest.length);
      for (const f of rest.slice(0, end).matchAll(FLAG)) {
        checked.add(start + f.index);
        if (!flags.has(f[1]!)) problems.push(`--${f[1]} is not a flag of ${m[1] ? `stockroom ${program}` : program}: ${line.trim().slice(0, 160)}`);
      }
    }
    const foreignFrom = FOREIGN.exec(line)?.index ?? line.length;
    for (const f of line.matchAll(FLAG)) {
      if (!checked.has(f.index) && f.index < foreignFrom && !any.has(f[1]!)) problems.push(`--${f[1]} is not a flag of any command: ${line.trim().slice(0, 160)}`);
    }
  }
  return problems;
}

/** The `STOCKROOM_*` and `OTEL_*` variables `text` names that the code does not read. */
export function unknownVariables(text: string): string[] {
  const known = new Set([...ENV_VARIABLES.map((v) => v.name), ...Object.keys(ENV_KEYS), ...Object.keys(DOCUMENTED_NOT_CONFIGURATION)]);
  const otel = fs.readFileSync('lib/otel/env.ts', 'utf8');
  const problems = new Set<string>();
  for (const m of text.matchAll(/\bSTOCKROOM_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!known.has(m[0])) problems.add(`${m[0]} is not a variable the code reads`);
  // OTEL_EXPORTER_OTLP_* (a family) is fine; a named one must be read by the exporter's settings.
  for (const m of text.matchAll(/\bOTEL_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!otel.includes(`'${m[0]}'`) && !otel.includes(`.${m[0]}`)) problems.add(`${m[0]} is not read by lib/otel/env.ts`);
  return [...problems];
}

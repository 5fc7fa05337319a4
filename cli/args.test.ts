import { describe, expect, it } from 'vitest';
import { CliUsageError, formatFlags, parseArgs, stringFlag, stringsFlag, wantsHelp, type FlagSpec } from './args';

const SPEC: FlagSpec = {
  dataset: { type: 'string', description: 'dataset directory' },
  transport: { type: 'string', description: 'tool transport', values: ['local', 'mcp-http'] },
  'mcp-header': { type: 'string', description: 'header for the MCP server', multiple: true },
  json: { type: 'boolean', description: 'print JSON' },
};

const usageError = (argv: string[]) => {
  try {
    parseArgs(argv, SPEC);
  } catch (err) {
    expect(err).toBeInstanceOf(CliUsageError);
    return (err as Error).message;
  }
  throw new Error('expected a usage error');
};

describe('parseArgs (util.parseArgs behind the FlagSpec interface)', () => {
  it('reads --name value, --name=value, booleans and positionals', () => {
    const a = parseArgs(['query', '--dataset', 'd1', '--transport=local', '--json', '--', '--not-a-flag'], SPEC);
    expect(a.positionals).toEqual(['query', '--not-a-flag']);
    expect(stringFlag(a, 'dataset')).toBe('d1');
    expect(stringFlag(a, 'transport')).toBe('local');
    expect(a.flags.json).toBe(true);
  });

  it('collects a repeatable flag in order', () => {
    const a = parseArgs(['--mcp-header', 'A: 1', '--mcp-header=B: 2'], SPEC);
    expect(stringsFlag(a, 'mcp-header')).toEqual(['A: 1', 'B: 2']);
    expect(stringsFlag(parseArgs([], SPEC), 'mcp-header')).toEqual([]);
  });

  it('names the flag in every usage error', () => {
    expect(usageError(['--nope'])).toBe('unknown flag --nope; allowed flags: --dataset, --transport, --mcp-header, --json');
    expect(usageError(['--dataset'])).toContain('--dataset needs a value (dataset directory)');
    expect(usageError(['--dataset', '--json'])).toContain('--dataset needs a value');
    expect(usageError(['--json=yes'])).toBe('--json takes no value');
    expect(usageError(['--transport', 'fax'])).toBe("--transport must be one of local, mcp-http; got 'fax'");
  });

  it('recognises --help and -h before any --, and lists every flag for it', () => {
    expect(wantsHelp(['x', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--', '--help'])).toBe(false);
    const text = formatFlags(SPEC);
    for (const name of Object.keys(SPEC)) expect(text).toContain(`--${name}`);
    expect(text).toContain('-h, --help');
  });
});

/**
 * `--mcp-command "CMD ARGS"` and `--mcp-header "Name: value"`, parsed. The command line is split
 * like a POSIX shell splits words (single and double quotes, backslash escapes) but never run by a
 * shell: no expansion, no pipes.
 */
import { ConfigError } from '../../harness';

/** Splits a command line into words; throws ConfigError naming `field` for an unclosed quote or nothing to run. */
export function splitCommandLine(line: string, field = 'mcp-command'): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) throw new ConfigError(field, `--${field} has an unclosed ${quote === '"' ? 'double' : 'single'} quote: ${line}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new ConfigError(field, `--${field} needs a command to run`);
  return words;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses `Name: value` headers into an object; a malformed one is a ConfigError quoting its name only (values may be secrets). */
export function parseHeaders(lines: readonly string[], field = 'mcp-header'): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) {
      throw new ConfigError(field, `--${field} must look like "Name: value"; got a header without a valid name${colon === -1 ? ' (no colon)' : ` ('${name}')`}`);
    }
    const value = line.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new ConfigError(field, `--${field} ${name}: the value may not contain line breaks`);
    headers[name] = value;
  }
  return headers;
}

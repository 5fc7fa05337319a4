/**
 * Checks an output file flag (`--out`, `--markdown`, …) before a command does any work, so a bad path
 * is refused naming the flag and nothing is computed or written half-way.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { CliUsageError } from './args';

/** Throws a CliUsageError naming `--<flag>` when `file` cannot be written as a new or replaced file. */
export function checkOutFile(flag: string, file: string): void {
  if (file.trim() === '') throw new CliUsageError(`--${flag} needs a file name`);
  const target = statSync(file, { throwIfNoEntry: false });
  if (target?.isDirectory()) throw new CliUsageError(`--${flag}: '${file}' is a directory; give a file name inside it`);
  const dir = path.dirname(path.resolve(file));
  const parent = statSync(dir, { throwIfNoEntry: false });
  if (!parent) throw new CliUsageError(`--${flag}: the directory '${path.dirname(file)}' does not exist; create it first`);
  if (!parent.isDirectory()) throw new CliUsageError(`--${flag}: '${path.dirname(file)}' is not a directory`);
}

/**
 * Reading dataset files: strict UTF-8, JSON with line numbers on syntax errors, and a record of the
 * bytes read so the dataset hash covers exactly what was loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatasetError } from '../../harness';
import { safeJsonParse, type JsonValue } from '../../harness';
import { findJsonSyntaxProblem, lineOfOffset } from './json-syntax';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads files under one dataset directory, remembering each file's bytes for hashing. */
export class DatasetReader {
  /** Relative path (POSIX separators) → bytes, for every file read. */
  readonly read = new Map<string, Uint8Array>();

  constructor(readonly dir: string) {}

  abs(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }

  exists(rel: string): boolean {
    return fs.existsSync(this.abs(rel));
  }

  /** File names directly in a sub-directory with the given suffix, in code-unit order; [] if absent. */
  list(relDir: string, suffix: string): string[] {
    const abs = this.abs(relDir);
    if (!fs.existsSync(abs)) return [];
    if (!fs.statSync(abs).isDirectory()) throw new DatasetError(relDir, 'expected a directory');
    return fs
      .readdirSync(abs, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(suffix))
      .map((e) => e.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Bytes of a file, recorded for the hash. */
  bytes(rel: string): Uint8Array {
    const abs = this.abs(rel);
    if (!fs.existsSync(abs)) throw new DatasetError(rel, 'file is missing');
    const bytes = fs.readFileSync(abs);
    this.read.set(rel, bytes);
    return bytes;
  }

  /** A file's text, decoded as strict UTF-8 and otherwise untouched (no trimming, no BOM removal). */
  text(rel: string): string {
    const bytes = this.bytes(rel);
    try {
      return UTF8.decode(bytes);
    } catch {
      throw new DatasetError(rel, 'file is not valid UTF-8');
    }
  }

  /** A JSON file parsed; a syntax error names its line. Returns the raw text as well. */
  json(rel: string): { value: JsonValue; text: string } {
    const text = this.text(rel);
    const parsed = safeJsonParse(text);
    if (parsed.ok) return { value: parsed.value, text };
    const problem = findJsonSyntaxProblem(text);
    const position = /position (\d+)/.exec(parsed.error);
    const offset = problem?.offset ?? (position ? Number(position[1]) : null);
    throw new DatasetError(rel, `invalid JSON: ${problem?.message ?? parsed.error}`, {
      line: offset === null ? null : lineOfOffset(text, offset),
    });
  }
}

import 'server-only';
/**
 * `npm run stockroom -- import FILE --tenant T`: an OTLP/JSON trace export (stream-parsed), a
 * `stockroom.run/v1` run file, or a `stockroom.suite/v1` JSONL suite, told apart by the first bytes.
 * Every run is validated before the first write; the runs are stored marked `imported`.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { saveRuns } from '../db/runs';
import type { Database } from '../db/core';
import type { SaveRunInput } from '../db/runs';
import { TraceImportError } from '../otel';
import { importSpanRecords, type ImportResult } from '../otel';
import { readOtlpJson } from '../otel';
import { detectFileKind, parseRunFile, parseSuiteHeader, type RunFile } from './run-file';

export interface ImportFileOptions {
  tenant: string;
  createdBy?: string | null;
  db?: Database;
}

export type ImportFileResult = { kind: 'otlp'; result: ImportResult } | { kind: 'run' | 'suite'; ids: string[] };

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new TraceImportError(where || 'file', `${where}not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function head(path: string): Promise<string> {
  const handle = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new TraceImportError('file', `cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  try {
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** What a re-imported run is stored with: its original meta, marked imported, for the tenant. */
export function importedInput(file: RunFile, options: ImportFileOptions): SaveRunInput {
  const config = file.meta.config && typeof file.meta.config === 'object' && !Array.isArray(file.meta.config) ? file.meta.config : { original: file.meta.config };
  return {
    run: file.run,
    meta: {
      datasetName: file.meta.datasetName,
      datasetHash: file.meta.datasetHash,
      transport: file.meta.transport,
      category: file.meta.category,
      config: { ...config, importedFrom: file.id, tenant: options.tenant },
      createdBy: options.createdBy ?? null,
      tenant: options.tenant,
      source: 'imported',
    },
  };
}

async function readSuite(path: string): Promise<RunFile[]> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  const files: RunFile[] = [];
  let n = 0;
  let expected = 0;
  for await (const line of lines) {
    n++;
    if (n === 1) {
      expected = parseSuiteHeader(parseJson(line, 'line 1: ')).runs;
      continue;
    }
    if (!line.trim()) continue;
    files.push(parseRunFile(parseJson(line, `line ${n}: `), `line ${n}: `));
  }
  if (files.length !== expected) throw new TraceImportError('runs', `the header announces ${expected} runs but the file has ${files.length} (truncated?)`);
  return files;
}

export async function importFile(path: string, options: ImportFileOptions): Promise<ImportFileResult> {
  const kind = detectFileKind(await head(path));
  if (kind === 'otlp') {
    const records = await readOtlpJson(createReadStream(path));
    return { kind, result: await importSpanRecords(records, options) };
  }
  // A run file is one run (bounded by what one run stores); a suite is read line by line.
  const files = kind === 'run' ? [parseRunFile(parseJson(await readFile(path, 'utf8'), ''), '')] : await readSuite(path);
  const ids = await saveRuns(files.map((f) => importedInput(f, options)), options.db);
  return { kind, ids };
}

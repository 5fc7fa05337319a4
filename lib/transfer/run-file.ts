/**
 * The downloadable forms of stored runs: one run as JSON (`stockroom.run/v1`: the stored RunResult
 * and what it was stored with) and a suite as JSONL (a `stockroom.suite/v1` header line, then one
 * run per line). `import` reads both back. The schema name comes first in every file, so a reader
 * can tell the format from the first bytes. Configuration is passed through secret redaction.
 */
import { z } from 'zod';
import type { JsonValue } from '../harness';
import { JsonValueSchema, RunResultSchema, type RunResult } from '../harness';
import { redactSecrets } from '../security';
import { TraceImportError } from '../otel/browser';

export const RUN_FILE_SCHEMA = 'stockroom.run/v1';
export const SUITE_FILE_SCHEMA = 'stockroom.suite/v1';

export const RunFileMetaSchema = z.object({
  datasetName: z.string(),
  datasetHash: z.string(),
  transport: z.string(),
  category: z.string().nullable(),
  setting: z.string(),
  source: z.enum(['harness', 'imported']),
  suiteRunId: z.string().nullable(),
  config: JsonValueSchema,
});

export const RunFileSchema = z.object({
  schema: z.literal(RUN_FILE_SCHEMA),
  /** The run's id where it was exported from. */
  id: z.string(),
  exportedAt: z.string(),
  meta: RunFileMetaSchema,
  run: RunResultSchema,
});
export type RunFile = z.infer<typeof RunFileSchema>;

export const SuiteFileHeaderSchema = z.object({
  schema: z.literal(SUITE_FILE_SCHEMA),
  exportedAt: z.string(),
  suite: z.object({ id: z.string(), kind: z.string(), status: z.string(), datasetName: z.string(), datasetHash: z.string(), createdAt: z.string() }).passthrough(),
  runs: z.number().int().nonnegative(),
});
export type SuiteFileHeader = z.infer<typeof SuiteFileHeaderSchema>;

/** What the data layer gives for one stored run (StoredRun, without importing lib/db here). */
export interface StoredRunLike {
  id: string;
  meta: { datasetName: string; datasetHash: string; transport: string; category?: string | null; setting: string; source: 'harness' | 'imported'; suiteRunId?: string | null; config: JsonValue };
  run: RunResult;
}

export function toRunFile(stored: StoredRunLike, exportedAt: Date): RunFile {
  return {
    schema: RUN_FILE_SCHEMA,
    id: stored.id,
    exportedAt: exportedAt.toISOString(),
    meta: {
      datasetName: stored.meta.datasetName,
      datasetHash: stored.meta.datasetHash,
      transport: stored.meta.transport,
      category: stored.meta.category ?? null,
      setting: stored.meta.setting,
      source: stored.meta.source,
      suiteRunId: stored.meta.suiteRunId ?? null,
      config: redactSecrets(stored.meta.config),
    },
    run: stored.run,
  };
}

/** Validates a parsed run file; the error names where (`line 3: run.usage.inputTokens …`). */
export function parseRunFile(value: unknown, where: string): RunFile {
  const parsed = RunFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'schema';
  throw new TraceImportError(`${where}${field}`, `${where}${field}: ${issue?.message ?? 'invalid'} (expected a ${RUN_FILE_SCHEMA} run file)`);
}

export function parseSuiteHeader(value: unknown): SuiteFileHeader {
  const parsed = SuiteFileHeaderSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new TraceImportError(`line 1: ${issue?.path.join('.')}`, `line 1: ${issue?.path.join('.')}: ${issue?.message} (expected a ${SUITE_FILE_SCHEMA} header)`);
}

/** Which kind of file starts with `head` (its first bytes). */
export function detectFileKind(head: string): 'run' | 'suite' | 'otlp' {
  const m = /^\s*\{\s*"schema"\s*:\s*"([^"]+)"/.exec(head);
  if (m?.[1] === RUN_FILE_SCHEMA) return 'run';
  if (m?.[1] === SUITE_FILE_SCHEMA) return 'suite';
  return 'otlp';
}

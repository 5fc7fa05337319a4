/**
 * The otel library's door: other libraries import lib/otel through these named exports only
 * (lib/import-graph.test.ts refuses an import of its internals). Any name added here is public.
 */
export { TraceImportError } from './errors';
export { type ImportResult, importSpanRecords } from './import/import-traces';
export { traceQuietMs } from './import/limits';
export { readOtlpJson } from './import/read-otlp';
export { exportRunTrace } from './run-exporter';
export { otelSettingsFromEnv } from './env';

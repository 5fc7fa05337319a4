/**
 * Imported traces and what is kept (floor db/traces, on db/runs): OTLP batches stored and built into runs,
 * the retention schedule that prunes runs, suites and raw OTLP rows.
 *
 * The area's entry: lib/ code outside lib/db/traces imports it only from here (lib/import-graph.test.ts).
 */
export { ingestTraceBatch, settleQuietTraces, type StoredLog, type StoredSpan, type TraceBuild, type TraceBuilder } from './otlp-store';
export { sweepRetention } from './retention';

/**
 * The export seam every run goes through (`onRunFinished`). Without OTEL_EXPORTER_OTLP_ENDPOINT it
 * does nothing and loads nothing; with one, the OpenTelemetry SDK (sdk-exporter.ts) is imported on
 * first use, so a CLI command or page that exports nothing pays nothing for it.
 */
import type { RunResult } from '../harness';
import { otelSettingsFromEnv } from './env';
import type { RunTraceContext, RunTraceExporter } from './sdk-exporter';

let shared: Promise<RunTraceExporter | null> | undefined;

/** The process's exporter from OTEL_* variables, or null when no endpoint is set. */
export function runTraceExporterFromEnv(): Promise<RunTraceExporter | null> | null {
  if (shared === undefined) {
    const settings = otelSettingsFromEnv();
    shared = settings ? import('./sdk-exporter').then((m) => m.createRunTraceExporter(settings)) : Promise.resolve(null);
  }
  return shared;
}

let refused = false;

/** Pending hand-overs to the exporter, so a flush waits for runs queued before the SDK loaded. */
const pending = new Set<Promise<void>>();

/**
 * Exports one finished run when an endpoint is configured; a no-op otherwise. Never throws: a
 * collector (or an SDK) that fails costs a warning, never the run.
 */
export function exportRunTrace(run: RunResult, extra?: RunTraceContext): void {
  try {
    if (otelSettingsFromEnv() === null) return;
  } catch (err) {
    // A bad OTEL_* value (grpc, a malformed URL) is named once; the runs themselves go on.
    if (!refused) console.warn(`OpenTelemetry export is off: ${err instanceof Error ? err.message : String(err)}`);
    refused = true;
    return;
  }
  const handOver: Promise<void> = runTraceExporterFromEnv()!
    .then((exporter) => exporter?.exportRun(run, extra))
    .catch((err: unknown) => console.warn(`OpenTelemetry: could not export run ${run.runId}: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => pending.delete(handOver));
  pending.add(handOver);
}

/** Sends every queued span (before the CLI exits). */
export async function flushRunTraces(): Promise<void> {
  if (shared === undefined) return;
  await Promise.all(pending);
  await (await shared)?.flush();
}

/**
 * Sends finished runs to an OTLP collector through the official OpenTelemetry JS SDK (loaded only
 * when an endpoint is configured: run-exporter.ts imports this module on demand). Spans are
 * built from the RunResult after the run (run-spans.ts), so lib/harness never sees the SDK. The
 * provider is not registered globally: these spans are ours alone, and a provider SDK's own
 * instrumentation is not switched on behind the user's back. A collector that is down or slow
 * costs one warning on stderr; it never fails a run.
 */
import { context, trace, SpanKind, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { RunResult } from '../harness';
import type { OtelExportSettings } from './env';
import { planRunSpans, type SpanPlan } from './run-spans';

const TRACER_NAME = 'stockroom.harness';
const TRACER_VERSION = '1';
/**
 * Spans per export request. A run's spans are queued together (emit is synchronous), so with a batch
 * this large a run of up to this many spans reaches the collector in one request, and a receiver
 * that rebuilds runs per request (ours) sees the whole trace. The SDK default is 512.
 */
const MAX_EXPORT_BATCH = 8192;
/** Spans queued before the processor drops new ones (the SDK default is 2048). */
const MAX_QUEUE = 65_536;

/** What the caller may add about a run the RunResult does not carry. */
export interface RunTraceContext {
  datasetName?: string;
}

export interface RunTraceExporter {
  readonly settings: OtelExportSettings;
  /** Queues the run's spans; never throws. Paused runs are exported when they finish. */
  exportRun(run: RunResult, extra?: RunTraceContext): void;
  /** Sends everything queued (the CLI calls this before it exits). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Passes spans on and reports a failed export, naming the collector. */
class WarningExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly url: string,
    private readonly warn: (message: string) => void,
  ) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        this.warn(`OpenTelemetry: could not export traces to ${this.url}: ${result.error?.message ?? 'export failed'} (runs are unaffected)`);
      }
      done(result);
    });
  }
  shutdown() {
    return this.inner.shutdown();
  }
  forceFlush() {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function emit(tracer: Tracer, plan: SpanPlan, parent: Span | null): void {
  const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
  const span = tracer.startSpan(
    plan.name,
    { kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, startTime: plan.startMs, attributes: plan.attributes, root: parent === null },
    ctx,
  );
  for (const event of plan.events) span.addEvent(event.name, event.attributes, event.timeMs);
  if (plan.errorType !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: plan.errorType });
  for (const child of plan.children) emit(tracer, child, span);
  span.end(plan.endMs);
}

/** An exporter for the given settings (tests pass their own; the app reads the environment). */
export function createRunTraceExporter(settings: OtelExportSettings, report: (message: string) => void = (m) => console.warn(m)): RunTraceExporter {
  // One warning per exporter: a collector that stays down must not flood the log run after run.
  let warned = false;
  const warn = (message: string) => {
    if (warned) return;
    warned = true;
    report(message);
  };
  const options = { url: settings.tracesUrl, headers: settings.headers, timeoutMillis: settings.timeoutMillis };
  const wire = settings.protocol === 'http/json' ? new OtlpJsonExporter(options) : new OtlpProtoExporter(options);
  // npm_package_version is not configuration: npm sets it, and the exporter only reports it.
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: process.env.npm_package_version ?? '0' }),
    spanProcessors: [new BatchSpanProcessor(new WarningExporter(wire, settings.tracesUrl, warn), { maxExportBatchSize: MAX_EXPORT_BATCH, maxQueueSize: MAX_QUEUE })],
  });
  const tracer = provider.getTracer(TRACER_NAME, TRACER_VERSION);
  return {
    settings,
    exportRun(run, extra = {}) {
      if (run.status !== 'finished') return;
      try {
        emit(tracer, planRunSpans(run, { captureContent: settings.captureContent, datasetName: extra.datasetName }), null);
      } catch (err) {
        warn(`OpenTelemetry: could not build spans for run ${run.runId}: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    async flush() {
      await provider.forceFlush().catch((err: unknown) => warn(`OpenTelemetry: flush failed: ${err instanceof Error ? err.message : String(err)}`));
    },
    async shutdown() {
      await provider.shutdown().catch(() => undefined);
    },
  };
}

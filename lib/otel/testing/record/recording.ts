/**
 * What every fixture recording shares: an OTel tracer provider (and logger provider) whose spans
 * are caught in memory, and the writer that saves them in the OTLP/JSON shape the official
 * exporters send.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export interface Recording {
  tracer: Tracer;
  provider: BasicTracerProvider;
  spans: InMemorySpanExporter;
  logs: InMemoryLogRecordExporter;
  loggerProvider: LoggerProvider;
}

/** `tracerName` names the application's own tracer (the weather fixtures' `weather-agent`). */
export function recording(serviceName: string, tracerName = 'weather-agent'): Recording {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const resource = resourceFromAttributes({ 'service.name': serviceName });
  const spans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(spans)] });
  const logs = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: logs })] });
  return { tracer: provider.getTracer(tracerName), provider, spans, logs, loggerProvider };
}

/** Writes the finished spans as one OTLP/JSON export request; returns how many. */
export async function writeTraces(r: Recording, file: string): Promise<number> {
  await r.provider.forceFlush();
  const finished = r.spans.getFinishedSpans();
  const traces = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(finished)!).toString('utf8')) as unknown;
  writeFileSync(path.join(FIXTURES, file), JSON.stringify(traces, null, 1) + '\n');
  return finished.length;
}

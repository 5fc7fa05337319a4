/**
 * OTLP/HTTP logs receiver: GenAI instrumentations (`@opentelemetry/instrumentation-openai` and the
 * OpenTelemetry GenAI conventions' content events) send the messages of a model call as log records
 * bound to its span. Same tenant tokens as /api/otlp/v1/traces; each bound record is stored with
 * its trace and becomes an event of its span when the trace's run is rebuilt (logs may arrive
 * before or after the spans). Records without a trace and span id are reported back as rejected
 * (OTLP partial success); a malformed or oversized body stores nothing.
 */
import { safeBearerRoute } from '@/lib/boundary/safe-bearer-route';
import { TraceImportError } from '@/lib/otel/errors';
import { importSpanRecords } from '@/lib/otel/import/import-traces';
import { readOtlpLogsJson, readOtlpLogsProtobuf, type LogBatch } from '@/lib/otel/import/log-record';
import { exportLogsResponseType } from '@/lib/otel/import/otlp-proto';
import { boundedBuffer, maxBodyBytes } from '@/lib/otel/import/read-body';
import { ingestCaller } from '@/lib/otel/ingest-tokens';

export const dynamic = 'force-dynamic';

function partialSuccess(batch: LogBatch): { rejectedLogRecords: number; errorMessage: string } | null {
  if (batch.unbound === 0) return null;
  return { rejectedLogRecords: batch.unbound, errorMessage: `${batch.unbound} log record(s) had no traceId and spanId, so no run can hold them; they were not stored` };
}

export const POST = safeBearerRoute({
  name: 'otlp logs',
  realm: 'stockroom-otlp',
  authenticate: ingestCaller,
  handler: async (request, caller) => {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const options = { tenant: caller.tenant, createdBy: caller.label };
    if (type !== 'application/json' && type !== 'application/x-protobuf') {
      throw new TraceImportError('content-type', `content-type '${type || '(none)'}' is not supported; send application/json or application/x-protobuf`, 415);
    }
    const body = await boundedBuffer(request, maxBodyBytes());
    const batch = type === 'application/json' ? readOtlpLogsJson(body.toString('utf8')) : readOtlpLogsProtobuf(body);
    if (batch.records.length > 0) await importSpanRecords([], options, batch.records);
    const partial = partialSuccess(batch);
    if (type === 'application/json') {
      return Response.json(partial ? { partialSuccess: { rejectedLogRecords: String(partial.rejectedLogRecords), errorMessage: partial.errorMessage } } : {});
    }
    const response = exportLogsResponseType();
    const encoded = response.encode(response.fromObject(partial ? { partialSuccess: partial } : {})).finish();
    return new Response(Buffer.from(encoded), { headers: { 'content-type': 'application/x-protobuf' } });
  },
});

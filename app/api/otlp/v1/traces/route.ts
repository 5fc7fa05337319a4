/**
 * OTLP/HTTP trace receiver: other agents (and this dashboard's own export) send traces here, JSON
 * or protobuf, with a tenant's bearer token. Spans are stored as they arrive and each agent trace
 * is (re)built as one imported run of that tenant, however many requests it comes in and however
 * often it is resent (lib/otel/import/import-traces.ts); spans of traces that are not an agent's
 * are reported back as rejected (OTLP partial success), and a malformed or oversized body stores nothing.
 */
import { safeBearerRoute } from '@/lib/boundary/safe-bearer-route';
import { TraceImportError } from '@/lib/otel/errors';
import { importSpanRecords, type ImportResult } from '@/lib/otel/import/import-traces';
import { exportTraceResponseType } from '@/lib/otel/import/otlp-proto';
import { boundedBody, boundedBuffer, maxBodyBytes } from '@/lib/otel/import/read-body';
import { readOtlpJson, readOtlpJsonText, readOtlpProtobuf, WHOLE_PARSE_MAX_BYTES } from '@/lib/otel/import/read-otlp';
import { ingestCaller } from '@/lib/otel/ingest-tokens';
import { pokeWatch } from '@/lib/jobs/queue';

export const dynamic = 'force-dynamic';

/**
 * OTLP partial success: spans of traces that are not an agent's (rejected), and what building the
 * runs' trees set aside (dropped spans count as rejected; repairs are named, the spans kept).
 */
function partialSuccess(result: ImportResult): { rejectedSpans: number; errorMessage: string } | null {
  const dropped = result.setAside.filter((s) => s.action === 'dropped').length;
  if (result.skippedSpans === 0 && result.setAside.length === 0) return null;
  const parts: string[] = [];
  if (result.skippedSpans > 0) parts.push(`${result.skippedTraces} trace(s) had no agent span (gen_ai.*, openinference.span.kind, ai.*, traceloop.*) and were not imported`);
  if (result.setAside.length > 0) parts.push(`set aside: ${setAsideText(result.setAside)}`);
  return { rejectedSpans: result.skippedSpans + dropped, errorMessage: parts.join('; ') };
}

/** The first few set-aside items, each as `reason span <id> (<action>)`, and how many more. */
function setAsideText(items: ImportResult['setAside']): string {
  const shown = items.slice(0, 10).map((s) => `${s.reason} span ${s.spanId} “${s.name.slice(0, 60)}” (${s.action})`);
  return items.length > shown.length ? `${shown.join(', ')} and ${items.length - shown.length} more` : shown.join(', ');
}

export const POST = safeBearerRoute({
  name: 'otlp traces',
  realm: 'stockroom-otlp',
  authenticate: ingestCaller,
  handler: async (request, caller) => {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const limit = maxBodyBytes();
    const options = { tenant: caller.tenant, createdBy: caller.label };
    if (type === 'application/json') {
      // Exporters send batches of a few MB at most: parse those whole; stream anything larger.
      const declared = Number(request.headers.get('content-length') ?? NaN);
      const records =
        Number.isFinite(declared) && declared <= WHOLE_PARSE_MAX_BYTES && !request.headers.get('content-encoding')
          ? readOtlpJsonText((await boundedBuffer(request, limit)).toString('utf8'))
          : await readOtlpJson(boundedBody(request, limit));
      const result = await importSpanRecords(records, options);
      // Finished runs wait in the outbox for their evaluators: a job scores them, never this request.
      if (result.runs.length > 0) await pokeWatch();
      const partial = partialSuccess(result);
      return Response.json(partial ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {});
    }
    if (type === 'application/x-protobuf') {
      const result = await importSpanRecords(readOtlpProtobuf(await boundedBuffer(request, limit)), options);
      if (result.runs.length > 0) await pokeWatch();
      const partial = partialSuccess(result);
      const response = exportTraceResponseType();
      const body = response.encode(response.fromObject(partial ? { partialSuccess: partial } : {})).finish();
      return new Response(Buffer.from(body), { headers: { 'content-type': 'application/x-protobuf' } });
    }
    throw new TraceImportError('content-type', `content-type '${type || '(none)'}' is not supported; send application/json or application/x-protobuf`, 415);
  },
});

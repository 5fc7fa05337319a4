/**
 * Reads OTLP trace payloads into span records. JSON is stream-parsed (stream-json): only one span
 * object is assembled at a time and each is reduced to a record as it arrives, so the raw text of
 * a large trace is never held whole. Protobuf is decoded with protobufjs against the OTLP schema
 * (otlp-proto.ts); a protobuf message cannot be decoded in pieces, so the receiver caps the body.
 */
import { Readable } from 'node:stream';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';
import { TraceImportError } from '../errors';
import { MAX_SPANS_PER_IMPORT } from './limits';
import { exportTraceRequestType } from './otlp-proto';
import { serviceNameOf, toSpanRecord, type SpanRecord } from './span-record';

const MATCH = /^resourceSpans\.(\d+)\.(?:resource|scopeSpans\.(\d+)\.spans\.(\d+))$/;

function tooMany(): never {
  throw new TraceImportError('spans', `the payload has more than ${MAX_SPANS_PER_IMPORT} spans; split it into smaller imports`, 413);
}

function noSpans(): never {
  throw new TraceImportError('resourceSpans', 'the payload has no spans at resourceSpans[].scopeSpans[].spans[] (is it an OTLP/JSON trace export?)');
}

/** Span records of an OTLP/JSON document read from a stream of bytes or text. */
export async function readOtlpJson(source: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Readable): Promise<SpanRecord[]> {
  const paths: string[] = [];
  const pipeline = chain([
    source instanceof Readable ? source : Readable.from(source),
    parser(),
    pick({
      filter: (stack) => {
        const path = stack.join('.');
        const matched = MATCH.test(path);
        if (matched) paths.push(path);
        return matched;
      },
    }),
    streamValues(),
  ]);
  const records: Array<{ record: SpanRecord; resource: number }> = [];
  const services = new Map<number, string | null>();
  try {
    for await (const item of pipeline as AsyncIterable<{ value: unknown }>) {
      const match = MATCH.exec(paths.shift() ?? '');
      if (!match) continue;
      const [, r, s, i] = match;
      const resource = Number(r);
      if (s === undefined) {
        services.set(resource, serviceNameOf(item.value, `resourceSpans[${resource}].resource`));
        continue;
      }
      if (records.length >= MAX_SPANS_PER_IMPORT) tooMany();
      records.push({ record: toSpanRecord(item.value, `resourceSpans[${resource}].scopeSpans[${s}].spans[${i}]`, null), resource });
    }
  } catch (err) {
    pipeline.destroy();
    if (err instanceof TraceImportError) throw err;
    throw new TraceImportError('body', `the payload is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (records.length === 0) noSpans();
  return records.map(({ record, resource }) => ({ ...record, serviceName: services.get(resource) ?? null }));
}

/** Bodies up to this size are parsed whole (JSON.parse is ~10× faster than the stream); larger ones are streamed. */
export const WHOLE_PARSE_MAX_BYTES = 8 * 1024 * 1024;

/** Span records of an OTLP/JSON document already in memory (a request body under WHOLE_PARSE_MAX_BYTES). */
export function readOtlpJsonText(text: string): SpanRecord[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new TraceImportError('body', `the payload is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const records: SpanRecord[] = [];
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  list(obj(doc).resourceSpans).forEach((rs, r) => {
    const service = serviceNameOf(obj(rs).resource, `resourceSpans[${r}].resource`);
    list(obj(rs).scopeSpans).forEach((ss, sIndex) => {
      list(obj(ss).spans).forEach((span, i) => {
        if (records.length >= MAX_SPANS_PER_IMPORT) tooMany();
        records.push(toSpanRecord(span, `resourceSpans[${r}].scopeSpans[${sIndex}].spans[${i}]`, service));
      });
    });
  });
  if (records.length === 0) noSpans();
  return records;
}

const base64ToHex = (value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : value);

/** Span records of an OTLP protobuf ExportTraceServiceRequest. */
export function readOtlpProtobuf(body: Uint8Array): SpanRecord[] {
  const type = exportTraceRequestType();
  let object: Record<string, unknown>;
  try {
    object = type.toObject(type.decode(body), { longs: String, enums: Number, bytes: String, defaults: false, oneofs: false });
  } catch (err) {
    throw new TraceImportError('body', `the payload is not an OTLP protobuf ExportTraceServiceRequest: ${err instanceof Error ? err.message : String(err)}`);
  }
  const records: SpanRecord[] = [];
  const resourceSpans = (object.resourceSpans as Array<Record<string, unknown>> | undefined) ?? [];
  resourceSpans.forEach((rs, r) => {
    const service = serviceNameOf(rs.resource, `resourceSpans[${r}].resource`);
    ((rs.scopeSpans as Array<Record<string, unknown>> | undefined) ?? []).forEach((ss, s) => {
      ((ss.spans as Array<Record<string, unknown>> | undefined) ?? []).forEach((span, i) => {
        if (records.length >= MAX_SPANS_PER_IMPORT) tooMany();
        // protobuf carries ids as bytes; OTLP/JSON (and span-record) as hex.
        const json = { ...span, traceId: base64ToHex(span.traceId), spanId: base64ToHex(span.spanId), parentSpanId: base64ToHex(span.parentSpanId) };
        records.push(toSpanRecord(json, `resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`, service));
      });
    });
  });
  if (records.length === 0) noSpans();
  return records;
}

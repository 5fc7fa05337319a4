/**
 * OTLP log records as the import keeps them: instrumentations following the GenAI conventions send
 * message content as log records (events `gen_ai.user.message`, `gen_ai.choice`, …) bound to the
 * span of the call by trace and span id. A bound record becomes an event of its span when the run
 * is rebuilt; an unbound one cannot be placed in any run and is refused (partial success).
 */
import { createHash } from 'node:crypto';
import { TraceImportError } from '../errors';
import { exportLogsRequestType } from './otlp-proto';
import { anyValue, attributes, storable, type AttrMap } from './span-record';

export interface LogRecord {
  traceId: string;
  spanId: string;
  /** sha256 of span, time, name and attributes: the record's identity for a resend. */
  digest: string;
  timeNs: bigint;
  /** The event name (`eventName`, else the `event.name` attribute, else `log`). */
  name: string;
  /** The record's attributes, with its body under `body`. */
  attributes: AttrMap;
}

export interface LogBatch {
  records: LogRecord[];
  /** Records without a trace and span id: refused. */
  unbound: number;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (path: string, message: string): never => {
  throw new TraceImportError(path, `${path}: ${message}`);
};

const hexOrNull = (v: unknown, length: number): string | null => (typeof v === 'string' && new RegExp(`^[0-9a-fA-F]{${length}}$`).test(v) && !/^0+$/.test(v) ? v.toLowerCase() : null);

function nanosOf(v: unknown): bigint | null {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^\d{1,20}$/.test(v) && v !== '0') return BigInt(v);
  return null;
}

function toLogRecord(raw: unknown, path: string): LogRecord | null {
  if (!isObject(raw)) return fail(path, 'must be a log record object');
  const traceId = hexOrNull(raw.traceId, 32);
  const spanId = hexOrNull(raw.spanId, 16);
  if (traceId === null || spanId === null) return null;
  const attrs = attributes(raw.attributes, `${path}.attributes`);
  const body = anyValue(raw.body, `${path}.body`);
  // The event name is text the import stores like a span's name: the same checks (valid Unicode, no NUL).
  const eventName = typeof raw.eventName === 'string' && raw.eventName !== '' ? storable(raw.eventName, `${path}.eventName`) : null;
  const name = eventName || (typeof attrs['event.name'] === 'string' ? attrs['event.name'] : null) || 'log';
  const timeNs = nanosOf(raw.timeUnixNano) ?? nanosOf(raw.observedTimeUnixNano) ?? 0n;
  const all: AttrMap = { ...attrs, body };
  const digest = createHash('sha256').update(JSON.stringify([spanId, String(timeNs), name, all])).digest('hex');
  return { traceId, spanId, digest, timeNs, name, attributes: all };
}

function fromRequest(object: unknown): LogBatch {
  if (!isObject(object) || !Array.isArray(object.resourceLogs)) return fail('resourceLogs', 'the payload has no resourceLogs[] (is it an OTLP/JSON logs export?)');
  const records: LogRecord[] = [];
  let unbound = 0;
  object.resourceLogs.forEach((rl, r) => {
    const scopes = isObject(rl) && Array.isArray(rl.scopeLogs) ? rl.scopeLogs : [];
    scopes.forEach((sl, s) => {
      const list = isObject(sl) && Array.isArray(sl.logRecords) ? sl.logRecords : [];
      list.forEach((raw, i) => {
        const record = toLogRecord(raw, `resourceLogs[${r}].scopeLogs[${s}].logRecords[${i}]`);
        if (record) records.push(record);
        else unbound++;
      });
    });
  });
  return { records, unbound };
}

/** Log records of an OTLP/JSON ExportLogsServiceRequest (the receiver bounds the body first). */
export function readOtlpLogsJson(text: string): LogBatch {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new TraceImportError('body', `the payload is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return fromRequest(parsed);
}

const base64ToHex = (value: unknown) => (typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : value);

/** Log records of an OTLP protobuf ExportLogsServiceRequest. */
export function readOtlpLogsProtobuf(body: Uint8Array): LogBatch {
  const type = exportLogsRequestType();
  let object: Record<string, unknown>;
  try {
    object = type.toObject(type.decode(body), { longs: String, enums: Number, bytes: String, defaults: false, oneofs: false });
  } catch (err) {
    throw new TraceImportError('body', `the payload is not an OTLP protobuf ExportLogsServiceRequest: ${err instanceof Error ? err.message : String(err)}`);
  }
  const resourceLogs = ((object.resourceLogs as Raw[] | undefined) ?? []).map((rl) => ({
    ...rl,
    scopeLogs: ((rl.scopeLogs as Raw[] | undefined) ?? []).map((sl) => ({
      ...sl,
      logRecords: ((sl.logRecords as Raw[] | undefined) ?? []).map((lr) => ({ ...lr, traceId: base64ToHex(lr.traceId), spanId: base64ToHex(lr.spanId) })),
    })),
  }));
  return fromRequest({ resourceLogs });
}

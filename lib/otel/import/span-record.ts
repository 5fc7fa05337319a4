/**
 * One span as the import works with it, normalised from OTLP/JSON or a decoded protobuf request:
 * hex ids, nanosecond times as bigint, attributes as a flat map of plain values. Validation names
 * the path of the offending field (`resourceSpans[0].scopeSpans[1].spans[3].traceId`).
 */
import { TraceImportError } from '../errors';
import { MAX_ATTRIBUTE_CHARS, MAX_ATTRIBUTES_PER_SPAN } from './limits';

export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type AttrMap = Record<string, AttrValue>;

export interface SpanEventRecord {
  name: string;
  timeNs: bigint;
  attributes: AttrMap;
}

export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP SpanKind number (1 internal, 2 server, 3 client, …). */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: AttrMap;
  events: SpanEventRecord[];
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  /** The resource's `service.name`, when the payload gave one. */
  serviceName: string | null;
}

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(path: string, message: string): never {
  throw new TraceImportError(path, `${path}: ${message}`);
}

/**
 * A string the import will store: well-formed Unicode (no unpaired UTF-16 surrogate, which neither
 * database's text can hold faithfully) and no NUL (PostgreSQL text refuses it; refused on SQLite too,
 * so a payload imports the same on both). The message names the path only: the text itself may be a
 * prompt or a tool result and is never echoed or logged.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function storable(value: string, path: string): string {
  if (LONE_SURROGATE.test(value)) fail(path, 'holds an unpaired UTF-16 surrogate (not valid Unicode text)');
  if (value.includes('\u0000')) fail(path, 'holds a NUL character (U+0000), which cannot be stored');
  return value;
}

/** Cuts a string to `max` UTF-16 units without leaving half of a surrogate pair at the end. */
function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const end = /[\uD800-\uDBFF]/.test(value[max - 1] ?? '') ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}

const HEX_ID: Record<number, RegExp> = { 8: /^[0-9a-fA-F]{16}$/, 16: /^[0-9a-fA-F]{32}$/ };
const ALL_ZEROS = /^0+$/;

function hexId(value: unknown, path: () => string, bytes: 8 | 16, optional: boolean): string | null {
  if ((value === undefined || value === null || value === '') && optional) return null;
  if (typeof value !== 'string' || !HEX_ID[bytes]!.test(value)) {
    fail(path(), `must be ${bytes * 2} hex characters, got ${JSON.stringify(value)?.slice(0, 60) ?? 'nothing'}`);
  }
  if (ALL_ZEROS.test(value)) return optional ? null : fail(path(), 'must not be all zeros');
  return value.toLowerCase();
}

function nanos(value: unknown, path: string): bigint {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return BigInt(Math.trunc(value));
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  return fail(path, `must be a non-negative integer of nanoseconds (number or string), got ${JSON.stringify(value)?.slice(0, 40) ?? 'nothing'}`);
}

function intOf(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  // A string of more digits than a double holds (past ~1e308) is no int64 either.
  if (typeof value === 'string' && /^-?\d+$/.test(value) && Number.isFinite(Number(value))) return Number(value);
  return fail(path, `intValue must be an integer (number or string), got ${JSON.stringify(value)?.slice(0, 40)}`);
}

/** An OTLP AnyValue as a plain value. */
export function anyValue(value: unknown, path: string): AttrValue {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) fail(path, 'must be an AnyValue object ({"stringValue": …}, {"intValue": …}, …)');
  if ('stringValue' in value) {
    const s = value.stringValue;
    if (typeof s !== 'string') fail(`${path}.stringValue`, 'must be a string');
    return cut(storable(s, `${path}.stringValue`), MAX_ATTRIBUTE_CHARS);
  }
  if ('boolValue' in value) {
    if (typeof value.boolValue !== 'boolean') fail(`${path}.boolValue`, 'must be true or false');
    return value.boolValue;
  }
  if ('intValue' in value) return intOf(value.intValue, `${path}.intValue`);
  if ('doubleValue' in value) {
    const d = value.doubleValue;
    // NaN and ±Infinity (protobuf carries them; OTLP/JSON spells them as strings) are no JSON value: null, as sent either way.
    if (typeof d === 'number') return Number.isFinite(d) ? d : null;
    if (typeof d === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(d)) return null;
    return fail(`${path}.doubleValue`, 'must be a number');
  }
  if ('arrayValue' in value) {
    const values = isObject(value.arrayValue) ? (value.arrayValue.values ?? []) : fail(`${path}.arrayValue`, 'must be an object with values');
    if (!Array.isArray(values)) fail(`${path}.arrayValue.values`, 'must be an array');
    return values.map((v, i) => anyValue(v, `${path}.arrayValue.values[${i}]`));
  }
  if ('kvlistValue' in value) {
    const values = isObject(value.kvlistValue) ? (value.kvlistValue.values ?? []) : fail(`${path}.kvlistValue`, 'must be an object with values');
    return attributes(values, `${path}.kvlistValue.values`);
  }
  if ('bytesValue' in value) {
    if (typeof value.bytesValue !== 'string') fail(`${path}.bytesValue`, 'must be a base64 string');
    return storable(value.bytesValue, `${path}.bytesValue`);
  }
  return null; // an empty AnyValue is allowed (OTLP: "no value")
}

/** Whether storable() would take `value` as it is (checked before any path is spelled out). */
const isStorable = (value: string) => !LONE_SURROGATE.test(value) && !value.includes('\u0000');

/**
 * A plain string or integer AnyValue (nearly every attribute) read without spelling out its path,
 * which only an error needs; NOT_PLAIN for anything else, which anyValue reads.
 */
const NOT_PLAIN = Symbol('not plain');
function plainValue(value: unknown): AttrValue | typeof NOT_PLAIN {
  if (!isObject(value)) return NOT_PLAIN;
  const s = value.stringValue;
  if (typeof s === 'string') return isStorable(s) ? cut(s, MAX_ATTRIBUTE_CHARS) : NOT_PLAIN;
  const n = value.intValue;
  if (typeof n === 'number' && Number.isInteger(n) && !('stringValue' in value) && !('boolValue' in value)) return n;
  return NOT_PLAIN;
}

/** An OTLP KeyValue list as a map. */
export function attributes(list: unknown, path: string): AttrMap {
  if (list === undefined || list === null) return {};
  if (!Array.isArray(list)) fail(path, 'must be an array of {key, value}');
  if (list.length > MAX_ATTRIBUTES_PER_SPAN) fail(path, `has ${list.length} attributes; at most ${MAX_ATTRIBUTES_PER_SPAN} are accepted`);
  const out: AttrMap = {};
  for (let i = 0; i < list.length; i++) {
    const kv: unknown = list[i];
    if (!isObject(kv) || typeof kv.key !== 'string') fail(`${path}[${i}].key`, 'must be a string');
    const key = isStorable(kv.key) ? kv.key : storable(kv.key, `${path}[${i}].key`);
    const plain = plainValue(kv.value);
    out[key] = plain !== NOT_PLAIN ? plain : anyValue(kv.value, `${path}[${i}].value`);
  }
  return out;
}

/** Validates and normalises one raw span (OTLP/JSON shape; protobuf is converted to it first). */
export function toSpanRecord(raw: unknown, path: string, serviceName: string | null): SpanRecord {
  if (!isObject(raw)) fail(path, 'must be a span object');
  if (typeof raw.name !== 'string') fail(`${path}.name`, 'must be a string');
  const status = isObject(raw.status) ? raw.status : {};
  const events = raw.events === undefined || raw.events === null ? [] : raw.events;
  if (!Array.isArray(events)) fail(`${path}.events`, 'must be an array');
  const kind = raw.kind === undefined ? 0 : Number(raw.kind);
  const startNs = nanos(raw.startTimeUnixNano, `${path}.startTimeUnixNano`);
  const endNs = raw.endTimeUnixNano === undefined ? startNs : nanos(raw.endTimeUnixNano, `${path}.endTimeUnixNano`);
  return {
    traceId: hexId(raw.traceId, () => `${path}.traceId`, 16, false)!,
    spanId: hexId(raw.spanId, () => `${path}.spanId`, 8, false)!,
    parentSpanId: hexId(raw.parentSpanId, () => `${path}.parentSpanId`, 8, true),
    name: isStorable(raw.name) ? raw.name : storable(raw.name, `${path}.name`),
    kind: Number.isInteger(kind) ? kind : 0,
    startNs,
    endNs: endNs < startNs ? startNs : endNs,
    attributes: attributes(raw.attributes, `${path}.attributes`),
    events: events.map((e, i) => {
      const p = `${path}.events[${i}]`;
      if (!isObject(e) || typeof e.name !== 'string') fail(`${p}.name`, 'must be a string');
      return { name: storable(e.name, `${p}.name`), timeNs: e.timeUnixNano === undefined ? startNs : nanos(e.timeUnixNano, `${p}.timeUnixNano`), attributes: attributes(e.attributes, `${p}.attributes`) };
    }),
    statusCode: typeof status.code === 'number' ? status.code : status.code === 'STATUS_CODE_ERROR' ? 2 : status.code === 'STATUS_CODE_OK' ? 1 : 0,
    statusMessage: typeof status.message === 'string' ? storable(status.message, `${path}.status.message`) : '',
    serviceName,
  };
}

/** `service.name` of a raw resource, or null. */
export function serviceNameOf(resource: unknown, path: string): string | null {
  if (!isObject(resource)) return null;
  const name = attributes(resource.attributes, `${path}.attributes`)['service.name'];
  return typeof name === 'string' ? name : null;
}

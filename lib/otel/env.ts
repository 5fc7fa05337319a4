/**
 * The OpenTelemetry exporter settings, read once from the standard OTEL_* variables. No endpoint
 * means no export at all. A protocol this build cannot speak (grpc) is refused with the variable's
 * name rather than silently sent another way.
 */
import { ConfigError } from '../harness';

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface OtelExportSettings {
  /** Full URL the trace exporter posts to (`…/v1/traces`). */
  tracesUrl: string;
  protocol: OtlpProtocol;
  serviceName: string;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: prompts, outputs, tool arguments and results. */
  captureContent: boolean;
  /** OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`), e.g. a collector's bearer token. */
  headers: Record<string, string>;
  /** OTEL_EXPORTER_OTLP_TIMEOUT (ms): the longest one export may take, retries included. */
  timeoutMillis: number;
}

const DEFAULT_SERVICE_NAME = 'stockroom-harness';
/** The OTLP default export timeout (spec: 10 s). */
const DEFAULT_TIMEOUT_MS = 10_000;

function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ConfigError('OTEL_EXPORTER_OTLP_HEADERS', `OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas; got '${pair.trim().slice(0, 40)}'`);
    headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return headers;
}

function parseUrl(name: string, value: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url;
  } catch {
    throw new ConfigError(name, `${name} must be an http(s) URL; got '${value}'`);
  }
}

function parseTimeout(name: string, env: Record<string, string | undefined>): number {
  const raw = env[name]?.trim();
  if (!raw) return DEFAULT_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 600_000) throw new ConfigError(name, `${name} must be whole milliseconds between 1 and 600000; got '${raw}'`);
  return value;
}

/** The export settings, or null when no endpoint is configured (nothing is exported). */
export function otelSettingsFromEnv(env: Record<string, string | undefined> = process.env): OtelExportSettings | null {
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!tracesEndpoint && !endpoint) return null;
  // The per-signal variable is used as is; the base endpoint gets the signal path appended (OTLP spec).
  const tracesUrl = tracesEndpoint
    ? parseUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint).toString()
    : new URL('v1/traces', parseUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint!.endsWith('/') ? endpoint! : `${endpoint}/`)).toString();
  const protocolVar = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = (env[protocolVar]?.trim() || 'http/protobuf') as OtlpProtocol;
  if (!OTLP_PROTOCOLS.includes(protocol)) {
    throw new ConfigError(protocolVar, `${protocolVar} must be one of ${OTLP_PROTOCOLS.join(', ')}; got '${env[protocolVar]}' (grpc is not supported here)`);
  }
  const capture = env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase();
  return {
    tracesUrl,
    protocol,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
    captureContent: capture === 'true',
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
    timeoutMillis: parseTimeout(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ? 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TIMEOUT', env),
  };
}

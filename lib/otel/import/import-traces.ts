import 'server-only';
/**
 * A run is a trace, not a request. Spans (and span-bound log records) are stored as they arrive,
 * idempotent on (trace id, span id), and the run of every trace that got something new is rebuilt
 * from all of its spans (trace-to-run.ts) under the same run id (lib/db/traces/otlp-store.ts). A batch
 * without the root is accepted; the run shows `running` until its root span arrives (an exporter
 * sends a span when it ends) or the trace is quiet for STOCKROOM_OTLP_TRACE_QUIET_SECONDS. Spans of
 * a trace that is not an agent's (no GenAI, OpenInference, AI SDK or OpenLLMetry attribute, and not
 * a trace already being assembled) are refused: reported back as OTLP partial success.
 */
import type { JsonValue } from '../../harness';
import type { SetAside } from '../../harness';
import type { Database } from '../../db/core';
import { ingestTraceBatch, settleQuietTraces, type StoredLog, type StoredSpan, type TraceBuild, type TraceBuilder } from '../../db/traces';
import { builtRun } from '../../db/runs';
import { redactSecrets } from '../../security';
import { TraceImportError } from '../errors';
import { redactRun } from './redact-run';
import { traceQuietMs } from './limits';
import type { LogRecord } from './log-record';
import type { SpanRecord } from './span-record';
import { sessionAndUser } from './conventions/span-view';
import { conversationKeys, isAgentSpan, traceToRun, type TraceFormat } from './trace-to-run';

export interface ImportedRunSummary {
  id: string;
  traceId: string;
  format: TraceFormat;
  modelCalls: number;
  toolCalls: number;
  terminationReason: string;
  /** `running` until the trace's root span has arrived (or the trace went quiet). */
  status: string;
}

export interface ImportResult {
  /** Runs (re)built from this payload's new spans. */
  runs: ImportedRunSummary[];
  spans: number;
  /** Spans already stored (a resend): nothing was added for them. */
  duplicateSpans: number;
  /** Agent traces kept without a run yet (no model or tool span so far). */
  pendingTraces: number;
  /** Traces with no agent span (an HTTP request's spans, say): refused. */
  skippedTraces: number;
  /** Spans of the refused traces. */
  skippedSpans: number;
  /**
   * What building the runs' trees set aside (dropped) or repaired (kept), per trace: duplicate span
   * ids with different content, cycles, missing parents, agents too deep, names too long (issue 31).
   */
  setAside: Array<SetAside & { traceId: string }>;
}

export interface ImportOptions {
  /** The tenant the runs belong to (the receiver's token's tenant, or the CLI's --tenant). */
  tenant: string;
  /** The dashboard user or token label that sent them, when known. */
  createdBy?: string | null;
  db?: Database;
}

const toEvents = (logs: StoredLog[], spanId: string) =>
  logs.filter((l) => l.spanId === spanId).map((l) => ({ name: l.name, timeNs: l.timeNs, attributes: l.attributes as SpanRecord['attributes'] }));

/** The rebuild handed to the store: one trace's spans (log records become events of their span) → run. */
function builder(options: ImportOptions): TraceBuilder {
  return {
    build: (traceIds, stored, logs, known) => buildRun(options, traceIds, stored, logs, known),
    conversationKeys: (spans) => (spans.length === 0 ? null : conversationKeys(spans as SpanRecord[])),
    // The ids the built run will carry (its meta below): the raw rows are redacted under the same subject's key.
    subject: (spans) => {
      const ids = sessionAndUser(spans as SpanRecord[]);
      return { traceUserId: ids.userId, sessionId: ids.sessionId, createdBy: options.createdBy ?? null };
    },
  };
}

function buildRun(options: ImportOptions, traceIds: string[], stored: StoredSpan[], logs: StoredLog[], known: boolean): TraceBuild {
  const spans = stored as SpanRecord[];
  if (!known && !spans.some(isAgentSpan)) return { kind: 'refused' };
  const rootEnded = spans.some((s) => s.parentSpanId === null);
  const withLogs = logs.length === 0 ? spans : spans.map((s) => ({ ...s, events: [...s.events, ...toEvents(logs, s.spanId)] }));
  const imported = traceToRun(withLogs);
  if (!imported) return { kind: 'pending', rootEnded };
  // Built by typed code from spans read-otlp validated field by field: the store does not parse it again.
  const run = builtRun(redactRun({ ...imported.run, status: rootEnded ? ('finished' as const) : ('running' as const) }));
  return {
    kind: 'run',
    rootEnded,
    input: {
      run,
      meta: {
        datasetName: imported.datasetName ?? `otlp:${imported.serviceName ?? 'unknown-service'}`,
        datasetHash: '',
        transport: 'otlp',
        category: null,
        config: { source: 'otlp', format: imported.format, traceId: imported.traceId, ...(traceIds.length > 1 ? { traceIds: [...traceIds].sort() } : {}), serviceName: imported.serviceName, tenant: options.tenant, rootSpan: rootEnded, sessionId: imported.sessionId, userId: imported.userId, modelCalls: redactSecrets(imported.modelCalls as unknown as JsonValue) },
        createdBy: options.createdBy ?? null,
        tenant: options.tenant,
        source: 'imported',
        sessionId: imported.sessionId,
        traceUserId: imported.userId,
        tags: imported.tags,
      },
    },
  };
}

/**
 * Stores a payload's spans and log records for the tenant and rebuilds the runs of their traces.
 * Refuses (stores nothing) only when every span belongs to a trace that is not an agent's.
 */
export async function importSpanRecords(records: SpanRecord[], options: ImportOptions, logs: LogRecord[] = []): Promise<ImportResult> {
  const outcomes = await ingestTraceBatch(options.tenant, records, logs, builder(options), options.db);
  const refused = outcomes.filter((o) => o.status === 'refused');
  if (refused.length === outcomes.length && outcomes.length > 0) {
    throw new TraceImportError(
      'resourceSpans',
      `none of the ${outcomes.length} trace(s) has a model or tool span (gen_ai.*, openinference.span.kind, ai.*, traceloop.*) nor belongs to a trace already received; nothing was stored`,
    );
  }
  await settleQuietTraces(traceQuietMs(), new Date(), options.db);
  const byRun = new Map<string, ImportedRunSummary>();
  for (const o of outcomes) {
    if (o.status !== 'stored' || o.build?.kind !== 'run' || o.runId === null) continue;
    const run = o.build.input.run;
    const config = o.build.input.meta.config as { format: TraceFormat };
    byRun.delete(o.runId);
    byRun.set(o.runId, {
      id: o.runId,
      traceId: o.traceId,
      format: config.format,
      modelCalls: run.usage.modelCalls,
      toolCalls: run.trajectory.filter((s) => s.kind === 'tool_call').length,
      terminationReason: run.terminationReason,
      status: run.status,
    });
  }
  const runs = [...byRun.values()];
  const setAside: ImportResult['setAside'] = [];
  const named = new Set<string>();
  const note = (traceId: string, item: SetAside) => {
    const key = `${traceId}:${item.spanId}:${item.reason}`;
    if (named.has(key)) return;
    named.add(key);
    setAside.push({ traceId, ...item });
  };
  for (const o of outcomes) {
    // Until the trace's root has arrived the run is provisional: a parent not received yet may come in
    // a later request (exporters batch children first), so it is not named as set aside until then.
    if (o.build?.kind === 'run') {
      const settled = o.build.rootEnded;
      for (const item of o.build.input.run.setAside ?? []) if (settled || item.reason !== 'missing_parent') note(o.traceId, item);
    }
    for (const c of o.conflicting) note(o.traceId, { spanId: c.spanId, name: c.name, reason: 'duplicate_span', action: 'dropped', detail: 'span id sent again with different content; the first is kept' });
  }
  const added = outcomes.reduce((n, o) => n + o.newSpans, 0);
  const skippedSpans = refused.reduce((n, o) => n + o.refusedSpans, 0);
  return {
    runs,
    spans: records.length,
    duplicateSpans: records.length - added - skippedSpans,
    pendingTraces: outcomes.filter((o) => o.status === 'pending').length,
    skippedTraces: refused.length,
    skippedSpans,
    setAside,
  };
}

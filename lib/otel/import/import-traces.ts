import 'server-only';
/**
 * Stores the runs an OTLP payload describes: spans grouped by trace, each trace rebuilt as a run
 * (trace-to-run.ts) and saved through the data layer marked `imported`. Every run is built and
 * validated before the first write, so a bad trace stores nothing.
 */
import { RunResultSchema } from '../../harness/types';
import { saveRuns } from '../../db/runs-write';
import type { Database } from '../../db/client';
import type { SaveRunInput } from '../../db/types';
import { TraceImportError } from '../errors';
import type { SpanRecord } from './span-record';
import { traceToRun, type TraceFormat } from './trace-to-run';

export interface ImportedRunSummary {
  id: string;
  traceId: string;
  format: TraceFormat;
  modelCalls: number;
  toolCalls: number;
  terminationReason: string;
}

export interface ImportResult {
  runs: ImportedRunSummary[];
  spans: number;
  /** Traces with no model or tool span (an HTTP request's spans, say): left out. */
  skippedTraces: number;
  /** Spans of the skipped traces. */
  skippedSpans: number;
}

export interface ImportOptions {
  /** The tenant the runs belong to (the receiver's token's tenant, or the CLI's --tenant). */
  tenant: string;
  /** The dashboard user or token label that sent them, when known. */
  createdBy?: string | null;
  db?: Database;
}

/** Groups spans by trace, builds one run per agent trace and stores them all. */
export async function importSpanRecords(records: SpanRecord[], options: ImportOptions): Promise<ImportResult> {
  const byTrace = new Map<string, SpanRecord[]>();
  for (const r of records) {
    const list = byTrace.get(r.traceId);
    if (list) list.push(r);
    else byTrace.set(r.traceId, [r]);
  }
  const inputs: SaveRunInput[] = [];
  const summaries: Omit<ImportedRunSummary, 'id'>[] = [];
  let skippedTraces = 0;
  let skippedSpans = 0;
  for (const [traceId, spans] of byTrace) {
    const imported = traceToRun(spans);
    if (!imported) {
      skippedTraces++;
      skippedSpans += spans.length;
      continue;
    }
    const parsed = RunResultSchema.safeParse(imported.run);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TraceImportError(`trace ${traceId}`, `trace ${traceId} does not make a valid run: ${issue?.path.join('.')}: ${issue?.message}`);
    }
    inputs.push({
      run: imported.run,
      meta: {
        datasetName: imported.datasetName ?? `otlp:${imported.serviceName ?? 'unknown-service'}`,
        datasetHash: '',
        transport: 'otlp',
        category: null,
        config: { source: 'otlp', format: imported.format, traceId, serviceName: imported.serviceName, tenant: options.tenant },
        createdBy: options.createdBy ?? null,
        source: 'imported',
      },
    });
    summaries.push({
      traceId,
      format: imported.format,
      modelCalls: imported.run.usage.modelCalls,
      toolCalls: imported.run.trajectory.filter((s) => s.kind === 'tool_call').length,
      terminationReason: imported.run.terminationReason,
    });
  }
  if (inputs.length === 0) {
    throw new TraceImportError(
      'resourceSpans',
      `none of the ${byTrace.size} trace(s) has a model or tool span (gen_ai.operation.name chat/execute_tool, or openinference.span.kind LLM/TOOL); nothing was stored`,
    );
  }
  const ids = await saveRuns(inputs, options.db);
  return { runs: summaries.map((s, i) => ({ id: ids[i]!, ...s })), spans: records.length, skippedTraces, skippedSpans };
}

/**
 * The short form of a run kept in reports and compared with the reference runs: termination,
 * per-call tokens and each tool record's name, arguments and outcome.
 */
import { z } from 'zod';
import { JsonValueSchema, isToolRecord, type RunResult, type ToolRecord } from '../harness';

/** `ok`, `invalid` (schema-invalid, not executed), `blocked:<guard>` or `error:<code>`, as in reference/runs.json. */
export function callStatus(record: Pick<ToolRecord, 'validationError' | 'blockedBy' | 'isError' | 'errorCode'>): string {
  if (record.validationError !== null) return 'invalid';
  if (record.blockedBy !== null) return `blocked:${record.blockedBy}`;
  if (record.isError) return `error:${record.errorCode ?? 'unknown'}`;
  return 'ok';
}

export const ToolCallSummarySchema = z.object({
  name: z.string(),
  args: JsonValueSchema,
  status: z.string(),
  quarantinedLines: z.number().int(),
});
export type ToolCallSummary = z.infer<typeof ToolCallSummarySchema>;

export const RunSummarySchema = z.object({
  runId: z.string(),
  terminationReason: z.string(),
  modelCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Null: the call reported no usage. */
  inputTokensPerCall: z.array(z.number().int().nullable()),
  outputTokensPerCall: z.array(z.number().int().nullable()),
  toolCalls: z.array(ToolCallSummarySchema),
  finalAnswer: z.string(),
  durationMs: z.number(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** Summarises a run for a report. */
export function summarizeRun(run: RunResult): RunSummary {
  return {
    runId: run.runId,
    terminationReason: run.terminationReason,
    modelCalls: run.usage.modelCalls,
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    inputTokensPerCall: run.usage.perCall.map((c) => c.inputTokens),
    outputTokensPerCall: run.usage.perCall.map((c) => c.outputTokens),
    toolCalls: run.trajectory.filter(isToolRecord).map((r) => ({
      name: r.name,
      args: r.arguments,
      status: callStatus(r),
      quarantinedLines: r.quarantinedLines,
    })),
    finalAnswer: run.finalAnswer,
    durationMs: run.durationMs,
  };
}

/**
 * The runs table as CSV (RFC 4180): one header line, then one line per run. Cells that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) are prefixed with `'`, since query
 * text comes from users and models.
 */
import type { RunListItem } from '../db/runs';

export const RUN_CSV_COLUMNS = [
  'id',
  'startedAt',
  'source',
  'datasetName',
  'caseId',
  'category',
  'query',
  'setting',
  'transport',
  'mode',
  'modelId',
  'status',
  'terminationReason',
  'steps',
  'toolCallCount',
  'toolErrorCount',
  'blockedCount',
  'guardCount',
  'totalTokens',
  'costUsd',
  // Calls whose usage was not reported: totalTokens and costUsd are then lower bounds (issue 40).
  'unreportedCalls',
  'durationMs',
  'suiteRunId',
] as const satisfies ReadonlyArray<keyof RunListItem>;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvHeader = (): string => RUN_CSV_COLUMNS.join(',') + '\r\n';

export const csvRow = (run: RunListItem): string => RUN_CSV_COLUMNS.map((c) => csvCell(run[c])).join(',') + '\r\n';

/**
 * Prisma rows → DTOs (pure). Stored JSON columns were written by this layer; a corrupt one is a
 * DbError rather than a crash in a page.
 */
import type { JsonValue } from '../../harness';
import type { Run } from '../generated/sqlite/client';
import { parseStoredJson } from '../core';
import type { RunListItem, RunSource } from './types';

/** The Run columns a list row needs (the page selects only these). */
export const RUN_LIST_SELECT = {
  id: true,
  harnessRunId: true,
  suiteRunId: true,
  caseId: true,
  category: true,
  query: true,
  datasetName: true,
  setting: true,
  weaknesses: true,
  transport: true,
  source: true,
  mode: true,
  modelId: true,
  terminationReason: true,
  status: true,
  governed: true,
  steps: true,
  toolCallCount: true,
  toolErrorCount: true,
  blockedCount: true,
  guardCount: true,
  totalTokens: true,
  costUsd: true,
  costKnown: true,
  unreportedCalls: true,
  durationMs: true,
  startedAt: true,
  sessionId: true,
  traceUserId: true,
  agentCount: true,
  taintedStep: true,
  tags: { select: { tag: true }, orderBy: { tag: 'asc' } },
} as const;

/** Read with a run's row wherever it is shown (RUN_LIST_SELECT, getRunSummary): its tags, sorted. */
export const RUN_TAGS_INCLUDE = { tags: RUN_LIST_SELECT.tags } as const;

type ListRow = Pick<Run, Exclude<keyof typeof RUN_LIST_SELECT, 'tags'>> & { tags: ReadonlyArray<{ tag: string }> };

/** A stored JSON array of strings (weaknesses, quarantined text, wrapper names). */
export function stringList(text: string, what: string): string[] {
  const value = parseStoredJson(text, what);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The stored source label (`harness` for anything unknown). */
export const sourceOf = (value: string): RunSource => (value === 'imported' ? 'imported' : 'harness');

export function toRunListItem(row: ListRow): RunListItem {
  return {
    id: row.id,
    harnessRunId: row.harnessRunId,
    suiteRunId: row.suiteRunId,
    caseId: row.caseId,
    category: row.category,
    query: row.query,
    datasetName: row.datasetName,
    setting: row.setting,
    weaknesses: stringList(row.weaknesses, 'weaknesses'),
    transport: row.transport,
    source: sourceOf(row.source),
    mode: row.mode,
    modelId: row.modelId,
    terminationReason: row.terminationReason,
    status: row.status,
    governed: row.governed,
    steps: row.steps,
    toolCallCount: row.toolCallCount,
    toolErrorCount: row.toolErrorCount,
    blockedCount: row.blockedCount,
    guardCount: row.guardCount,
    totalTokens: Number(row.totalTokens),
    costUsd: row.costKnown ? row.costUsd : null,
    costKnown: row.costKnown,
    unreportedCalls: row.unreportedCalls,
    durationMs: row.durationMs,
    startedAt: row.startedAt.toISOString(),
    sessionId: row.sessionId,
    traceUserId: row.traceUserId,
    agentCount: row.agentCount,
    taintedStep: row.taintedStep,
    tags: row.tags.map((t) => t.tag),
  };
}

export function json(text: string, what: string): JsonValue {
  return parseStoredJson(text, what);
}

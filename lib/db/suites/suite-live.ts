import 'server-only';
/**
 * What a suite's stored runs add to its progress: its cost so far (total and per setting; unknown when
 * any run's model has no price) and the cases running now (a live model stores each run as it goes).
 */
import { getDb, type Database } from '../core';

export interface CostDto {
  /** Null (unknown) when any run's model has no price. */
  usd: number | null;
  /** False when any run's model has no price: the sum is then not the cost. */
  known: boolean;
  /** Calls of its runs whose usage was not reported: the sum is then a lower bound ("≥ $…"). */
  unreportedCalls: number;
}

export interface RunningCaseDto {
  runId: string;
  caseId: string | null;
  setting: string;
  steps: number;
}

export interface SuiteLiveDto {
  cost: CostDto & { bySetting: Record<string, CostDto> };
  running: RunningCaseDto[];
}

export async function getSuiteLive(suiteRunId: string, db: Database = getDb()): Promise<SuiteLiveDto> {
  const p = db.prisma;
  const [groups, running] = await Promise.all([
    p.run.groupBy({ by: ['setting', 'costKnown'], where: { suiteRunId }, _sum: { costUsd: true, unreportedCalls: true } }),
    p.run.findMany({ where: { suiteRunId, status: 'running' }, select: { id: true, caseId: true, setting: true, steps: true }, orderBy: { id: 'asc' } }),
  ]);
  const sums: Record<string, { usd: number; known: boolean; unreportedCalls: number }> = {};
  for (const g of groups) {
    const cur = (sums[g.setting] ??= { usd: 0, known: true, unreportedCalls: 0 });
    cur.usd += g._sum.costUsd ?? 0;
    cur.known &&= g.costKnown;
    cur.unreportedCalls += g._sum.unreportedCalls ?? 0;
  }
  // A sum over runs of which any has no price is not the cost: it is unknown (null), never a partial figure.
  const bySetting: Record<string, CostDto> = Object.fromEntries(Object.entries(sums).map(([k, c]) => [k, { usd: c.known ? c.usd : null, known: c.known, unreportedCalls: c.unreportedCalls }]));
  const all = Object.values(sums);
  const known = all.every((c) => c.known);
  return {
    cost: { usd: known ? all.reduce((a, c) => a + c.usd, 0) : null, known, unreportedCalls: all.reduce((n, c) => n + c.unreportedCalls, 0), bySetting },
    running: running.map((r) => ({ runId: r.id, caseId: r.caseId, setting: r.setting, steps: r.steps })),
  };
}

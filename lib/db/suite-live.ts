import 'server-only';
/**
 * What a suite's stored runs add to its progress: its cost so far (total and per setting; unknown when
 * any run's model has no price) and the cases running now (a live model stores each run as it goes).
 */
import { getDb, type Database } from './client';

export interface CostDto {
  usd: number;
  /** False when any run's model has no price: the sum is then not the cost. */
  known: boolean;
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
    p.run.groupBy({ by: ['setting', 'costKnown'], where: { suiteRunId }, _sum: { costUsd: true } }),
    p.run.findMany({ where: { suiteRunId, status: 'running' }, select: { id: true, caseId: true, setting: true, steps: true }, orderBy: { id: 'asc' } }),
  ]);
  const bySetting: Record<string, CostDto> = {};
  for (const g of groups) {
    const cur = (bySetting[g.setting] ??= { usd: 0, known: true });
    cur.usd += g._sum.costUsd ?? 0;
    cur.known &&= g.costKnown;
  }
  const all = Object.values(bySetting);
  return {
    cost: { usd: all.reduce((a, c) => a + c.usd, 0), known: all.every((c) => c.known), bySetting },
    running: running.map((r) => ({ runId: r.id, caseId: r.caseId, setting: r.setting, steps: r.steps })),
  };
}

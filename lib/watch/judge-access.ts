/**
 * What scoring a run with a judge evaluator needs from the job doing it (the watch drain, a backfill
 * step): one judge per spec, built once (a live one through the models library's live door, loaded
 * only when a live judge is defined), and each evaluator's known spend today, kept up to date as the
 * job grades so its daily cap holds within the job too.
 */
import { FakeJudge, type Judge } from '../eval';
import { FAKE_MODEL } from '../harness';
import type { Database } from '../db/core';
import type { EvaluatorDto } from '../db/review';
import { evaluatorSpendSince } from '../db/review';
import type { JudgeAccess } from './score-run';

export interface JudgeAccessOptions {
  db: Database;
  now: () => Date;
  signal?: AbortSignal;
  /** Builds a live judge (default: lib/models/live createJudge). */
  liveJudge?: (spec: string) => Promise<Judge>;
}

const dayStart = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

async function defaultLiveJudge(spec: string): Promise<Judge> {
  const { createJudge } = await import('../models/live');
  return createJudge({ judge: spec, baseUrl: process.env.STOCKROOM_JUDGE_BASE_URL?.trim() || null });
}

export function judgeAccess(o: JudgeAccessOptions): JudgeAccess {
  const judges = new Map<string, Promise<Judge>>();
  const spent = new Map<string, { day: number; usd: number }>();
  return {
    signal: o.signal,
    judgeFor: (spec) => {
      let judge = judges.get(spec);
      if (!judge) {
        judge = spec.trim() === FAKE_MODEL ? Promise.resolve(new FakeJudge('v2')) : (o.liveJudge ?? defaultLiveJudge)(spec);
        judges.set(spec, judge);
      }
      return judge;
    },
    spentToday: async (e: EvaluatorDto) => {
      const day = dayStart(o.now());
      const known = spent.get(e.id);
      if (known && known.day === day) return known.usd;
      const usd = await evaluatorSpendSince(e.tenant, e.id, new Date(day), o.db);
      spent.set(e.id, { day, usd });
      return usd;
    },
    spent: (e, usd) => {
      const day = dayStart(o.now());
      const known = spent.get(e.id);
      spent.set(e.id, { day, usd: (known && known.day === day ? known.usd : 0) + usd });
    },
  };
}

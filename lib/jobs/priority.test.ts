/**
 * A suite starts its longest cases first: the fan-out gives each case job a priority from how long
 * the case took before (longestFirst), and the queue runs ready jobs by priority. A matrix whose
 * longest case starts last ends on it while every other slot stands idle.
 */
import { describe, expect, it } from 'vitest';
import { createHandlers, longestFirst } from './handlers';
import { InProcessQueue } from './in-process';
import { JOB_PRIORITY_RANGE, type JobHandlers, type JobPayload } from './types';

const caseJob = (caseId: string): JobPayload<'suite-case'> => ({ suiteRunId: 's', datasetDir: '/d', goldenPath: '/g.jsonl', setting: 'none', caseId });

describe('longest cases first', () => {
  it('orders by past duration, longest first, and puts a case never run ahead of all', () => {
    const order = [undefined, 120_000, 400, 0, 5_000_000].map((ms) => ({ ms, priority: longestFirst(ms) }));
    const sorted = [...order].sort((a, b) => a.priority - b.priority).map((o) => o.ms);
    expect(sorted).toEqual([undefined, 5_000_000, 120_000, 400, 0]);
    for (const o of order) {
      expect(Number.isInteger(o.priority)).toBe(true);
      expect(o.priority).toBeGreaterThanOrEqual(JOB_PRIORITY_RANGE.min);
      expect(o.priority).toBeLessThanOrEqual(JOB_PRIORITY_RANGE.max);
    }
  });

  it('the in-process queue runs ready jobs by priority, equal ones in the order they came', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const blocker = new Promise<void>((r) => (release = r));
    const handlers: JobHandlers = {
      ...createHandlers(),
      async 'suite-case'(job) {
        if (job.caseId === 'blocker') await blocker;
        else ran.push(job.caseId);
      },
    };
    const queue = new InProcessQueue(handlers, 1);
    // The blocker holds the only slot while the rest are queued behind it.
    await queue.enqueue('suite-case', caseJob('blocker'));
    await queue.enqueueMany('suite-case', [
      { payload: caseJob('short'), priority: longestFirst(300) },
      { payload: caseJob('plain-a') },
      { payload: caseJob('long'), priority: longestFirst(9_000) },
      { payload: caseJob('new'), priority: longestFirst(undefined) },
      { payload: caseJob('plain-b') },
      { payload: caseJob('long-too'), priority: longestFirst(9_000) },
    ]);
    release();
    await queue.idle();
    expect(ran).toEqual(['new', 'long', 'long-too', 'short', 'plain-a', 'plain-b']);
    await queue.close();
  });
});

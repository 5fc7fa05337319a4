/**
 * A run stored as a tree of agents (issue 31) reads back with its tree: each step's agent and span
 * ids, the agents with their transitions, rollups and times, what the import set aside, and the
 * per-call provider id, model and cost; the runs list filters by agent name and counts agents; a
 * run that lists no agents reads as one agent, `stockroom` — on both databases.
 */
import { expect } from 'vitest';
import type { Agent, RunResult } from '../../harness/types';
import { getRunOrThrow, getRunSummaryOrThrow, getRunSteps } from './runs-read';
import { listRuns } from './runs-list';
import { saveRun } from './runs-write';
import { getRunTimeline } from './run-timeline';
import { makeMeta, makeRun } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

const time = (startMs: number, endMs: number) => ({
  startedAt: new Date(Date.UTC(2026, 0, 1) + startMs).toISOString(),
  endedAt: new Date(Date.UTC(2026, 0, 1) + endMs).toISOString(),
  startMs,
  endMs,
});

const agent = (over: Partial<Agent> & Pick<Agent, 'id' | 'name' | 'path'>): Agent => ({
  parent: null,
  entered: 'root',
  parallelGroup: null,
  transitions: [
    { step: 0, from: 'PLAN', to: 'CALL_MODEL', reason: 'start' },
    { step: 1, from: 'CALL_MODEL', to: 'DONE', reason: 'stop_reason:end_turn' },
  ],
  rollup: { modelCalls: 1, toolCalls: 0, inputTokens: 10, outputTokens: 5, costUsd: null, costNote: 'no price for acme:m1', latencyMs: 40, outcome: 'completed', outcomeDetail: 'COMPLETED' },
  time: time(0, 40),
  ...over,
});

/** A planner with a sub-agent: the base fixture's steps split between them. */
function treeRun(runId: string): RunResult {
  const base = makeRun({ runId, rounds: 2 });
  const agents = [
    agent({ id: 'span-planner', name: 'planner', path: ['planner'] }),
    agent({ id: 'span-checker', name: 'inventory-checker', path: ['planner', 'inventory-checker'], parent: 0, entered: 'tool', via: { toolUseId: 'call-1', spanId: 'span-tool' }, time: time(5, 30) }),
  ];
  const trajectory = base.trajectory.map((s, i) => ({ ...s, agent: i % 2, spanId: `span-${i}`, parentSpanId: i % 2 ? 'span-checker' : 'span-planner' }));
  trajectory[0] = { ...trajectory[0]!, ...(trajectory[0]!.kind === 'model_turn' ? { provider: 'gcp.gemini', providerId: 'google', model: 'gemini-2.5-flash', costUsd: null, costNote: 'no price for google:gemini-2.5-flash' } : {}) };
  return {
    ...base,
    trajectory,
    agents,
    setAside: [{ spanId: 'dup', name: 'chat m1', reason: 'duplicate_span', action: 'dropped', detail: 'sent twice with different content; the first kept' }],
  };
}

describeOnDatabases('agent tree on $name', ({ test, db }) => {
  test('keeps the agents, each step’s agent and spans, and what was set aside through a save and a read', async () => {
    const run = treeRun('tree-1');
    const id = await saveRun(run, makeMeta({ source: 'imported' }), db);
    const read = (await getRunOrThrow(id, db)).run;
    expect(read.agents).toEqual(run.agents);
    expect(read.setAside).toEqual(run.setAside);
    expect(read.trajectory.map((s) => [s.agent, s.spanId, s.parentSpanId])).toEqual(run.trajectory.map((s) => [s.agent, s.spanId, s.parentSpanId]));
    const first = read.trajectory[0]!;
    expect(first.kind === 'model_turn' && [first.provider, first.providerId, first.model, first.costUsd, first.costNote]).toEqual([
      'gcp.gemini',
      'google',
      'gemini-2.5-flash',
      null,
      'no price for google:gemini-2.5-flash',
    ]);
    const page = await getRunSteps(id, { fromIndex: 0, toIndex: 10 }, db);
    expect(page.items.map((s) => s.agent)).toEqual(run.trajectory.slice(0, 10).map((s) => s.agent));
    const summary = await getRunSummaryOrThrow(id, db);
    expect(summary.agentCount).toBe(2);
    expect(summary.agents.map((a) => a.path)).toEqual([['planner'], ['planner', 'inventory-checker']]);
    expect(summary.setAside).toHaveLength(1);
  });

  test('reads a run that lists no agents as one agent, stockroom, whose log is the run’s timeline (not read twice)', async () => {
    const run = makeRun({ runId: 'single' });
    const id = await saveRun(run, makeMeta(), db);
    const read = (await getRunOrThrow(id, db)).run;
    expect(read).not.toHaveProperty('agents');
    expect(read.trajectory.every((s) => s.agent === undefined && s.spanId === undefined)).toBe(true);
    const summary = await getRunSummaryOrThrow(id, db);
    expect(summary.agentCount).toBe(1);
    expect(summary.agents).toHaveLength(1);
    expect(summary.agents[0]).toMatchObject({ name: 'stockroom', path: ['stockroom'], parent: null, entered: 'root', transitions: [] });
    // Its outcome still follows the run's last transition, and the log itself is the timeline's.
    const last = run.transitions.at(-1)!.to;
    expect(summary.agents[0]!.rollup.outcome).toBe(last === 'DONE' ? 'completed' : last === 'FAILED' ? 'failed' : 'unfinished');
    expect((await getRunTimeline(id, db)).transitions.map((t) => t.to)).toEqual(run.transitions.map((t) => t.to));
    expect(summary.agents[0]!.rollup.toolCalls).toBe(run.trajectory.filter((s) => s.kind === 'tool_call').length);
  });

  test('filters the runs list by agent name and by agent count', async () => {
    const tenant = 'agents-filter';
    const multi = await saveRun(treeRun('tree-2'), makeMeta({ tenant }), db);
    const single = await saveRun(makeRun({ runId: 'single-2' }), makeMeta({ tenant }), db);
    const ids = async (filters: Parameters<typeof listRuns>[0]) => (await listRuns({ ...filters }, db)).items.map((r) => r.id).sort();
    expect(await ids({ filters: { tenant, agent: 'inventory-checker' } })).toEqual([multi]);
    expect(await ids({ filters: { tenant, agent: 'stockroom' } })).toEqual([single]);
    expect(await ids({ filters: { tenant, minAgents: 2 } })).toEqual([multi]);
    const items = (await listRuns({ filters: { tenant } }, db)).items;
    expect(Object.fromEntries(items.map((r) => [r.id, r.agentCount]))).toEqual({ [multi]: 2, [single]: 1 });
  });

  test('refuses a step that names an agent the run does not have, naming the field, and writes nothing', async () => {
    const run = treeRun('tree-bad');
    run.trajectory[1] = { ...run.trajectory[1]!, agent: 7 };
    await expect(saveRun(run, makeMeta({ id: 'bad-tree' }), db)).rejects.toThrow(/trajectory\.1\.agent/);
    await expect(getRunOrThrow('bad-tree', db)).rejects.toThrow(/not found/);
  });
});

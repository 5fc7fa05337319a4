/**
 * The span tree's first rows read without the whole waterfall (issue 31's replay GET) are the rows the
 * whole waterfall gives: a big imported tree of agents, the same with rows of no agent and of an agent
 * the run does not list, and with a bar whose start was not recorded (then the whole waterfall is read)
 * — on both databases. The expected start is built as the page built it before: every row read and
 * shaped, then `spanTreeStart`.
 */
import { expect, vi } from 'vitest';
import type { Database } from '@/lib/db/core/client';
import { describeOnDatabases } from '@/lib/db/testing/on-databases';
import { getRunSummary } from '@/lib/db/runs/runs-read';
import { agentTreeSpans, otlpDocument } from '@/lib/otel/testing/agent-traces';
import { readOtlpJsonText } from '@/lib/otel/import/read-otlp';
import { importSpanRecords } from '@/lib/otel/import/import-traces';
import { agentReplayOf } from '@/lib/charts/agent-frames';
import { OPEN_ALL_UP_TO, spanTreeStart, type AgentView } from '@/lib/charts/agent-tree';
import { shapeWaterfall } from '@/lib/charts/waterfall';
import { loadWaterfall } from './load-waterfall';
import { loadTreeStart } from './load-tree-start';

// Which rows the tree start reads: the whole waterfall, or all but the sub-agents' rows.
vi.mock('./load-waterfall', async (original) => {
  const real = await original<typeof import('./load-waterfall')>();
  return { ...real, loadWaterfall: vi.fn(real.loadWaterfall) };
});

const TENANT = 'tree-start';

async function importTree(db: Database, seed: string, agents: number, spans: number): Promise<{ id: string; views: AgentView[] }> {
  const imported = await importSpanRecords(readOtlpJsonText(JSON.stringify(otlpDocument([{ seed, spans: agentTreeSpans(agents, spans) }]))), { tenant: TENANT, db });
  expect(imported.runs).toHaveLength(1);
  const id = imported.runs[0]!.id;
  const summary = (await getRunSummary(id, db))!;
  return { id, views: agentReplayOf(summary.agents, summary.durationMs)!.views };
}

/** The tree start as the page built it from the whole waterfall. */
async function fromWholeWaterfall(db: Database, id: string, views: AgentView[]) {
  const waterfall = (await loadWaterfall(id, TENANT, db))!;
  const shaped = shapeWaterfall(waterfall.entries, { runDurationMs: waterfall.runDurationMs });
  return spanTreeStart(views, shaped.bars, shaped.axisMs);
}

describeOnDatabases('the span tree start on $name', ({ test, db }) => {
  test('a big tree of agents: only the root agents’ bars are read, and the rows, places and axis are the whole waterfall’s', async () => {
    const { id, views } = await importTree(db, 'big', 9, 1_200);
    const expected = await fromWholeWaterfall(db, id, views);
    expect(expected.barCount).toBeGreaterThan(OPEN_ALL_UP_TO);
    // The root's own bars only (a big run opens its roots), and every agent placed.
    expect(expected.places).toHaveLength(views.length);
    expect(expected.bars.index.length).toBeLessThan(expected.barCount / 4);
    expect(await loadTreeStart(id, TENANT, views, db)).toEqual(expected);
    const subAgents = views.filter((v) => v.parent !== null).map((v) => v.id);
    expect(vi.mocked(loadWaterfall)).toHaveBeenLastCalledWith(id, TENANT, db, { exceptAgents: subAgents });
  });

  test('rows of no agent and of an agent the run does not list stand under the first root, as in the whole tree', async () => {
    const { id, views } = await importTree(db, 'strays', 7, 900);
    const turns = await db.prisma.modelTurn.findMany({ where: { runId: id, agentIdx: { not: 0 } }, orderBy: { idx: 'asc' }, select: { idx: true } });
    // The earliest row of a sub-agent loses its agent, another names agent 99 (no such agent).
    await db.prisma.modelTurn.update({ where: { runId_idx: { runId: id, idx: turns[0]!.idx } }, data: { agentIdx: null } });
    await db.prisma.modelTurn.update({ where: { runId_idx: { runId: id, idx: turns[5]!.idx } }, data: { agentIdx: 99 } });
    const expected = await fromWholeWaterfall(db, id, views);
    const got = await loadTreeStart(id, TENANT, views, db);
    expect(got).toEqual(expected);
    expect(got!.bars.index).toEqual(expect.arrayContaining([turns[0]!.idx, turns[5]!.idx]));
  });

  test('a bar whose start was not recorded is laid after the one before it: the start is the whole waterfall’s', async () => {
    const { id, views } = await importTree(db, 'unrecorded', 7, 900);
    const turns = await db.prisma.modelTurn.findMany({ where: { runId: id }, orderBy: { idx: 'asc' }, select: { idx: true } });
    await db.prisma.modelTurn.update({ where: { runId_idx: { runId: id, idx: turns[3]!.idx } }, data: { startMs: null } });
    await db.prisma.toolCall.updateMany({ where: { runId: id }, data: { endMs: -1 } });
    const expected = await fromWholeWaterfall(db, id, views);
    expect(await loadTreeStart(id, TENANT, views, db)).toEqual(expected);
    expect(vi.mocked(loadWaterfall)).toHaveBeenLastCalledWith(id, TENANT, db);
  });

  test('another tenant’s run has no tree start', async () => {
    const { id, views } = await importTree(db, 'other', 3, 500);
    expect(await loadTreeStart(id, 'someone-else', views, db)).toBeNull();
  });
});

import 'server-only';
/**
 * The span tree's first rows for the page's HTML (issue 31). A small run sends all its bars; a big one
 * opens only its root agents, so only their bars are read — with each agent's place and the axis from
 * an outline of the whole waterfall (lib/db/runs/run-waterfall.ts) — as long as every bar stands on its own
 * recorded span. Otherwise (a bar laid after the one before it) the whole waterfall is read and shaped.
 * Either way the rows are the ones the whole tree draws first (load-tree-start.test.ts).
 */
import { runWaterfallOutline } from '@/lib/db/runs/run-waterfall';
import type { Database } from '@/lib/db/core/client';
import { agentPlaces, OPEN_ALL_UP_TO, rootAgentIds, spanTreeStart, type AgentView, type SpanTreeStart } from '@/lib/charts/agent-tree';
import { shapeWaterfall } from '@/lib/charts/waterfall';
import { loadWaterfall } from './load-waterfall';

export async function loadTreeStart(runId: string, tenant: string, agents: readonly AgentView[], db?: Database): Promise<SpanTreeStart | null> {
  const outline = await runWaterfallOutline(runId, tenant, db);
  if (!outline) return null;
  if (outline.barCount > OPEN_ALL_UP_TO && outline.unplaced === 0) {
    const roots = new Set(rootAgentIds(agents));
    const waterfall = await loadWaterfall(runId, tenant, db, { exceptAgents: agents.filter((a) => !roots.has(a.id)).map((a) => a.id) });
    if (!waterfall) return null;
    const shaped = shapeWaterfall(waterfall.entries, { runDurationMs: waterfall.runDurationMs });
    const axisMs = Math.max(outline.maxEndMs ?? 0, outline.durationMs);
    return spanTreeStart(agents, shaped.bars, axisMs, { places: agentPlaces(agents, outline.firsts), barCount: outline.barCount });
  }
  const waterfall = await loadWaterfall(runId, tenant, db);
  if (!waterfall) return null;
  const shaped = shapeWaterfall(waterfall.entries, { runDurationMs: waterfall.runDurationMs });
  return spanTreeStart(agents, shaped.bars, shaped.axisMs);
}

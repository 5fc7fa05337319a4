/**
 * The dashboard's runs, suites and golden sets as resources of /api/mcp (issue 40), scoped to one
 * tenant: whatever the caller names, only their tenant's objects are read, and another tenant's is
 * answered exactly like one that does not exist (null: the server says "not found"). A run is followed
 * through the process's per-run watch hub (progress-hub.ts), the same one reader of its progress row
 * that the run page's event stream uses: no second polling loop.
 */
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Database } from '../db/core';
import { getDb } from '../db/core';
import { InvalidInputError, NotFoundError } from '../db/core';
import { getGoldenSetTextOrThrow, listGoldenSets } from '../db/review';
import { resolveRunId } from '../db/runs';
import { listRuns } from '../db/runs';
import { getRunOrThrow } from '../db/runs';
import { getSuiteCases, getSuiteRun, listSuiteRuns } from '../db/suites';
import { requireSuiteInTenant } from '../db/governance';
import { COMPLETION_LIMIT, resourceUri, type ResourceKind, type ResourceSource, type RunChange } from '../mcp';
import { listApprovals } from '../db/governance';
import { byTimeLeft } from '../governance';
import { getRunProgressOrThrow, type RunProgressDto } from '../db/runs';
import { isLiveStatus } from '../format';
import { watchRunProgress } from './progress-hub';

/** How many recent runs and suites resources/list names (the templates reach every other one). */
export const LISTED_RECENT = 20;

const JSON_TYPE = 'application/json';

/** Null for what the caller cannot see (absent, another tenant's, a malformed id); anything else is thrown. */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof NotFoundError || err instanceof InvalidInputError) return null;
    throw err;
  }
}

async function readRun(tenant: string, id: string, db: Database): Promise<string | null> {
  const full = await orNull(() => resolveRunId(id, 'runId', tenant, db));
  if (full === null) return null;
  const stored = await orNull(() => getRunOrThrow(full, db));
  return stored ? JSON.stringify(stored) : null;
}

async function readSuite(tenant: string, id: string, db: Database): Promise<string | null> {
  if ((await orNull(() => requireSuiteInTenant(id, tenant, db))) === null) return null;
  const suite = await getSuiteRun(id, db);
  return suite ? JSON.stringify({ ...suite, cases: await getSuiteCases(id, undefined, db) }) : null;
}

/**
 * What of a run's progress its resource shows: a step stored, a model call, its status and why it
 * ended. A tool's progress and the answer forming are not in the stored run, so they send no update.
 */
function shownOf(p: RunProgressDto): string {
  return JSON.stringify([p.status, p.steps, p.modelCallCount, p.terminationReason]);
}

/**
 * Follows the tenant's run `id` (or its last characters) in the watch hub. The progress read here,
 * before the subscription is answered, is the baseline: every later change is told, even one stored
 * before the hub's first read (subscribe, then read the resource, and nothing is missed).
 */
async function watchRun(tenant: string, id: string, changed: (change: RunChange) => void, db: Database): Promise<(() => void) | null> {
  const full = await orNull(() => resolveRunId(id, 'runId', tenant, db));
  if (full === null) return null;
  const baseline = await orNull(() => getRunProgressOrThrow(full, db));
  if (baseline === null) return null;
  let shown = shownOf(baseline);
  // An ended run changes no more (a new step or end is never stored after its end).
  if (!isLiveStatus(baseline.status)) return () => undefined;
  return watchRunProgress(
    full,
    (progress, ended) => {
      if (progress === null) return changed('gone');
      const now = shownOf(progress);
      if (now === shown) return;
      shown = now;
      changed(ended ? 'ended' : 'updated');
    },
    db,
  );
}

/** The most pending requests the approval-queue resource holds (soonest to expire first). */
export const QUEUE_LIMIT = 100;

/**
 * The tenant's pending approval requests as the triage_approvals prompt hands them to a model: what
 * each call would do (tool, arguments as stored), why it was held, approvals still needed, time left,
 * and whether its run read planted instructions. Decisions stay in the dashboard.
 */
async function approvalQueue(tenant: string, db: Database): Promise<string> {
  const now = new Date();
  const pending = byTimeLeft(await listApprovals(db.prisma, 'pending', now, [tenant]));
  const shown = pending.slice(0, QUEUE_LIMIT);
  const tainted = new Set(
    (await db.prisma.run.findMany({ where: { id: { in: shown.map((r) => r.runId) }, tenant, taintedStep: { not: null } }, select: { id: true } })).map((r) => r.id),
  );
  return JSON.stringify({
    at: now.toISOString(),
    pending: pending.length,
    requests: shown.map((r) => ({
      id: r.id,
      page: `/approvals/${r.id}`,
      runId: r.runId,
      step: r.step,
      tool: r.proposal.tool,
      arguments: r.proposal.arguments,
      rule: r.rule,
      message: r.message,
      approverRole: r.approverRole,
      quorum: r.quorum,
      approvals: r.decisions.filter((d) => d.verdict === 'approve').length,
      createdAt: r.createdAt,
      expiresAt: r.proposal.expiresAt,
      minutesLeft: Math.max(0, Math.round((Date.parse(r.proposal.expiresAt) - now.getTime()) / 60_000)),
      runTainted: tainted.has(r.runId),
    })),
  });
}

/** The resources of `tenant`, for the MCP server serving one of its callers. */
export function tenantResources(tenant: string, db: Database = getDb()): ResourceSource {
  return {
    async approvalQueue() {
      return { mimeType: JSON_TYPE, text: await approvalQueue(tenant, db) };
    },
    async list(): Promise<Resource[]> {
      const [runs, suites, sets] = await Promise.all([
        listRuns({ filters: { tenant }, limit: LISTED_RECENT }, db),
        listSuiteRuns({ tenant, limit: LISTED_RECENT }, db),
        listGoldenSets(tenant, db),
      ]);
      return [
        ...runs.items.map((r) => ({ uri: resourceUri('run', r.id), name: r.id, title: r.query.slice(0, 120), mimeType: JSON_TYPE })),
        ...suites.items.map((s) => ({ uri: resourceUri('suite', s.id), name: s.id, title: `${s.kind} on ${s.datasetName} (${s.status})`, mimeType: JSON_TYPE })),
        ...sets.map((g) => ({ uri: resourceUri('golden-set', g.name), name: g.name, title: `${g.name} v${g.version} (${g.caseCount} cases)`, mimeType: 'application/jsonl' })),
      ];
    },
    async complete(kind: ResourceKind, prefix: string): Promise<string[]> {
      const starts = (value: string) => value.startsWith(prefix);
      if (kind === 'run') return (await listRuns({ filters: { tenant }, limit: COMPLETION_LIMIT }, db)).items.map((r) => r.id).filter(starts);
      if (kind === 'suite') return (await listSuiteRuns({ tenant, limit: COMPLETION_LIMIT }, db)).items.map((s) => s.id).filter(starts);
      return (await listGoldenSets(tenant, db)).map((g) => g.name).filter(starts);
    },
    async read(kind: ResourceKind, id: string) {
      if (kind === 'run') {
        const text = await readRun(tenant, id, db);
        return text === null ? null : { mimeType: JSON_TYPE, text };
      }
      if (kind === 'suite') {
        const text = await readSuite(tenant, id, db);
        return text === null ? null : { mimeType: JSON_TYPE, text };
      }
      const set = await orNull(() => getGoldenSetTextOrThrow(tenant, id, null, db));
      return set ? { mimeType: 'application/jsonl', text: set.jsonl } : null;
    },
    watchRun(id, changed) {
      return watchRun(tenant, id, changed, db);
    },
  };
}

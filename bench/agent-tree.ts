/**
 * `npm run bench -- --only agenttree,otlp`: a 5,000-span trace of 20 agents (a planner, sub-agents
 * it delegates to, agents called as tools, parallel branches), imported as one run with its tree:
 * building the run from the spans (traceToRun) and the whole import through the OTLP receiver's
 * route handler (bearer token, storage, the run written) in 1,000-span requests, root last; then
 * the stored run read back with its agents. The `otlp` section beside it reports the 100,000-span
 * ingest. Measures, never asserts.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { migrate } from '../scripts/db-migrate.mjs';
import { createTestDatabaseUrl } from '../lib/db/testing/test-databases';
import { hashToken } from '../lib/otel/ingest-tokens';
import { agentTreeSpans, otlpDocument } from '../lib/otel/testing/agent-traces';
import { percentile } from './stats';

interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  detail?: string;
}

const AGENTS = 20;
const SPANS = 5_000;
const SPANS_PER_REQUEST = 1_000;
const TOKEN = 'bench-agent-tree-token-0123456789ab';

/** The trace: 5,000 spans of 20 agents. */
export const treeSpans = () => agentTreeSpans(AGENTS, SPANS);

export async function benchAgentTree(repeat = 3): Promise<Figure[]> {
  const spans = treeSpans();
  const { readOtlpJsonText } = await import('../lib/otel/import/read-otlp');
  const { traceToRun } = await import('../lib/otel/import/trace-to-run');
  const records = readOtlpJsonText(JSON.stringify(otlpDocument([{ seed: 'bench-tree', spans }])));
  const buildMs: number[] = [];
  let agents = 0;
  for (let r = 0; r < repeat; r++) {
    const t = performance.now();
    const run = traceToRun(records)!.run;
    buildMs.push(performance.now() - t);
    agents = run.agents?.length ?? 0;
  }

  const { url, drop } = await createTestDatabaseUrl('sqlite');
  await migrate({ url });
  const env = { DATABASE_URL: process.env.DATABASE_URL, STOCKROOM_OTLP_TOKENS: process.env.STOCKROOM_OTLP_TOKENS };
  process.env.DATABASE_URL = url;
  process.env.STOCKROOM_OTLP_TOKENS = `bench:${hashToken(TOKEN)}`;
  const { POST } = await import('../app/api/otlp/v1/traces/route');
  const { closeDb } = await import('../lib/db/core/client');
  const { listRuns } = await import('../lib/db/runs/runs-list');
  const { getRunSummaryOrThrow, getRunSteps } = await import('../lib/db/runs/runs-read');
  try {
    const importMs: number[] = [];
    const importCpuMs: number[] = [];
    const readMs: number[] = [];
    for (let r = 0; r < repeat; r++) {
      const seed = `bench-tree-${r}`;
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      for (let i = 0; i < spans.length; i += SPANS_PER_REQUEST) {
        const body = JSON.stringify(otlpDocument([{ seed, spans: spans.slice(i, i + SPANS_PER_REQUEST) }]));
        const res = await POST(new Request('http://127.0.0.1/api/otlp/v1/traces', { method: 'POST', body, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), authorization: `Bearer ${TOKEN}` } }));
        if (res.status !== 200) throw new Error(`the receiver answered ${res.status}: ${await res.text()}`);
      }
      importMs.push(performance.now() - t);
      const cpu = process.cpuUsage(cpu0);
      importCpuMs.push((cpu.user + cpu.system) / 1000);
    }
    const { items } = await listRuns({ filters: { tenant: 'bench', agent: 'agent-19' } });
    for (let r = 0; r < repeat; r++) {
      const t = performance.now();
      await getRunSummaryOrThrow(items[0]!.id);
      await getRunSteps(items[0]!.id, { fromIndex: 0, toIndex: 500 });
      readMs.push(performance.now() - t);
    }
    return [
      { name: `build the run of ${spans.length} spans / ${agents} agents (traceToRun), p50`, value: Math.round(percentile(buildMs, 50)), unit: 'ms', detail: `${repeat} runs` },
      { name: `import ${spans.length} spans / ${AGENTS} agents via the receiver, ${SPANS_PER_REQUEST}-span requests, p50`, value: Math.round(percentile(importMs, 50) / 10) / 100, unit: 's', target: '≤ 5 s', detail: `max ${Math.round(Math.max(...importMs) / 10) / 100} s; ${items.length} run(s) found by agent name; SQLite` },
      { name: 'CPU this process spent on that import (user + system), p50', value: Math.round(percentile(importCpuMs, 50) / 10) / 100, unit: 's', detail: `wall time depends on the machine's load (${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)` },
      { name: 'read its header with agents + first 500 steps, p50', value: Math.round(percentile(readMs, 50)), unit: 'ms' },
    ];
  } finally {
    await closeDb().catch(() => undefined);
    process.env.DATABASE_URL = env.DATABASE_URL;
    process.env.STOCKROOM_OTLP_TOKENS = env.STOCKROOM_OTLP_TOKENS;
    await drop();
  }
}

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
import { otlpDocument, type SpanSpec } from '../lib/otel/testing/agent-traces';
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

/** The trace: agent 0 the root; agents 1–19 under it or under each other, some as tools, some overlapping. */
export function treeSpans(): SpanSpec[] {
  const perAgent = Math.floor((SPANS - AGENTS) / AGENTS / 2);
  const spans: SpanSpec[] = [];
  const window = 100_000;
  for (let a = 0; a < AGENTS; a++) {
    const parent = a === 0 ? null : a < 8 ? 'agent-0' : `agent-${1 + (a % 7)}`;
    const start = a === 0 ? 0 : (a % 4) * 1000 + a * 10;
    const end = a === 0 ? window + 50_000 : start + window / 2;
    // Every third sub-agent runs under a tool call of its parent.
    const underTool = a > 0 && a % 3 === 0;
    if (underTool) spans.push({ id: `tool-for-${a}`, parent: parent!, name: `execute_tool ask_${a}`, start: start - 1, end: end + 1, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `ask_${a}`, 'gen_ai.tool.call.id': `call-agent-${a}` } });
    spans.push({ id: `agent-${a}`, parent: underTool ? `tool-for-${a}` : parent, name: `invoke_agent agent-${a}`, start, end, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `agent-${a}` } });
    const step = (end - start) / (perAgent * 2 + 1);
    for (let k = 0; k < perAgent; k++) {
      const t = start + step * (2 * k + 0.5);
      spans.push({ id: `c-${a}-${k}`, parent: `agent-${a}`, name: 'chat gpt-4o-mini', start: t, end: t + step * 0.8, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': a % 2 ? 'gcp.gemini' : 'openai', 'gen_ai.request.model': a % 2 ? 'gemini-2.5-flash' : 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 500 + k, 'gen_ai.usage.output_tokens': 20 } });
      spans.push({ id: `t-${a}-${k}`, parent: `agent-${a}`, name: 'execute_tool lookup', start: t + step, end: t + step * 1.8, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': `call-${a}-${k}`, 'gen_ai.tool.call.result': `{"k":${k}}` } });
    }
  }
  // Children before their root, as a BatchSpanProcessor sends them.
  return [...spans.filter((s) => s.parent !== null), ...spans.filter((s) => s.parent === null)];
}

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
  const { closeDb } = await import('../lib/db/client');
  const { listRuns } = await import('../lib/db/runs-list');
  const { getRunSummaryOrThrow, getRunSteps } = await import('../lib/db/runs-read');
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

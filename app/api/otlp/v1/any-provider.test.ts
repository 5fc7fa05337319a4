/**
 * Issue 31, "any provider": a trace from each of ten providers as producers spell them, plus the AI
 * SDK's `stub.chat`, imports through the HTTP receiver (200, never a 400 an OTLP exporter would
 * drop the batch on) and through `stockroom import`, on SQLite and PostgreSQL: the provider kept
 * as sent beside its normalised id, a model without a price costing null with a note naming it.
 * The multi-agent trace is stored and read back as a tree on both databases.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/core/client';
import { getRunOrThrow, getRunSummaryOrThrow } from '@/lib/db/runs/runs-read';
import { listRuns } from '@/lib/db/runs/runs-list';
import { createTestDatabaseUrl, testProviders } from '@/lib/db/testing/test-databases';
import type { ModelTurn } from '@/lib/harness/types';
import { hashToken } from '@/lib/otel/ingest-tokens';
import { agentSpan, otlpDocument, plannerTrace, traceIdOf, type SpanSpec } from '@/lib/otel/testing/agent-traces';
import { migrate } from '@/scripts/db-migrate.mjs';
import { POST as postTraces } from './traces/route';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const TOKEN = 'any-provider-token-0123456789abcdef';

/** The ten spellings, the model each producer would name, and the id the import gives it. */
const PROVIDERS: Array<[sent: string, model: string, id: string]> = [
  ['gcp.gemini', 'gemini-2.5-flash', 'google'],
  ['google.generative-ai', 'gemini-2.5-flash', 'google'],
  ['mistral_ai', 'mistral-large-latest', 'mistral'],
  ['groq', 'llama-3.3-70b-versatile', 'groq'],
  ['azure.ai.openai', 'gpt-4o-mini', 'azure'],
  ['x_ai', 'grok-4', 'xai'],
  ['deepseek', 'deepseek-chat', 'deepseek'],
  ['cohere', 'command-r-plus', 'cohere'],
  ['ollama', 'llama3.2', 'ollama'],
  ['aws.bedrock', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'bedrock'],
];

/** A one-call GenAI trace on a provider (the AI SDK's `stub.chat` gets its own attributes). */
function oneCall(sent: string, model: string): SpanSpec[] {
  if (sent === 'stub.chat') {
    return [
      { id: 'root', name: 'ai.generateText', start: 0, end: 100, attributes: { 'ai.operationId': 'ai.generateText', 'ai.model.provider': sent, 'ai.model.id': model } },
      { id: 'call', parent: 'root', name: 'ai.generateText.doGenerate', start: 5, end: 95, attributes: { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.model.provider': sent, 'ai.model.id': model, 'ai.usage.promptTokens': 12, 'ai.usage.completionTokens': 3, 'ai.response.text': 'ok' } },
    ];
  }
  return [
    { id: 'root', name: 'invoke_agent helper', start: 0, end: 100, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper' } },
    { id: 'call', parent: 'root', name: `chat ${model}`, start: 5, end: 95, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': sent, 'gen_ai.request.model': model, 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 3 } },
  ];
}

const ALL: Array<[string, string, string]> = [...PROVIDERS, ['stub.chat', 'stub-model', 'stub']];

const send = (body: unknown) =>
  postTraces(new Request('http://127.0.0.1/api/otlp/v1/traces', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }));

const firstTurn = async (runId: string) => (await getRunOrThrow(runId)).run.trajectory.find((s): s is ModelTurn => s.kind === 'model_turn')!;

async function runIdOf(tenant: string, seed: string): Promise<string> {
  const { items } = await listRuns({ filters: { tenant, source: 'imported' }, limit: 200 });
  for (const item of items) {
    const stored = await getRunOrThrow(item.id);
    if ((stored.meta.config as { traceId?: string }).traceId === traceIdOf(seed)) return item.id;
  }
  throw new Error(`no run for ${seed}`);
}

const env = { ...process.env };
const providers = await testProviders();

describe.each(providers)('any provider on $name', (provider) => {
  let url = '';
  let drop: () => Promise<void> = async () => {};
  let dir = '';
  const test = provider.skipReason ? it.skip : it;
  beforeAll(async () => {
    if (provider.skipReason) return;
    const t = await createTestDatabaseUrl(provider.name);
    await migrate({ url: t.url });
    url = t.url;
    drop = t.drop;
    await closeDb();
    process.env.DATABASE_URL = url;
    process.env.STOCKROOM_OTLP_TOKENS = `acme:${hashToken(TOKEN)}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'any-provider-'));
  });
  afterAll(async () => {
    await closeDb();
    process.env = { ...env };
    await drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the HTTP receiver takes a trace from each provider spelling: 200, provider as sent, its id, cost known or null with a note', async () => {
    for (const [sent, model, id] of ALL) {
      const res = await send(otlpDocument([{ seed: `http:${sent}`, spans: oneCall(sent, model) }]));
      expect(res.status, sent).toBe(200);
      const turn = await firstTurn(await runIdOf('acme', `http:${sent}`));
      expect([turn.provider, turn.providerId ?? turn.provider], sent).toEqual([sent, id]);
      if (turn.costUsd === null) expect(turn.costNote).toContain(`${id}:${model}`);
    }
  });

  test('stockroom import takes the same traces from a file', () => {
    const file = path.join(dir, 'providers.json');
    fs.writeFileSync(file, JSON.stringify(otlpDocument(ALL.map(([sent, model]) => ({ seed: `cli:${sent}`, spans: oneCall(sent, model) })))));
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'cli/stockroom.ts', 'import', file, '--tenant', 'cli', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: url },
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { result: { runs: unknown[] } };
    expect(out.result.runs).toHaveLength(ALL.length);
  });

  test('the issue’s planner trace is stored and read back as a tree, cost the same in the header and the calls', async () => {
    expect((await send(otlpDocument([{ seed: 'planner', spans: plannerTrace() }]))).status).toBe(200);
    const id = await runIdOf('acme', 'planner');
    const summary = await getRunSummaryOrThrow(id);
    expect(summary.agentCount).toBe(2);
    expect(summary.agents.map((a) => a.path.join(' › '))).toEqual(['planner', 'planner › inventory-checker']);
    const run = (await getRunOrThrow(id)).run;
    const turns = run.trajectory.filter((s): s is ModelTurn => s.kind === 'model_turn');
    expect(turns.map((t) => t.agent)).toEqual([1, 1, 0, 0]);
    expect(summary.costUsd).toBeCloseTo(turns.reduce((n, t) => n + t.costUsd!, 0), 12);
    expect((await listRuns({ filters: { tenant: 'acme', agent: 'inventory-checker' } })).items.map((r) => r.id)).toEqual([id]);
  });

  test('bad trees are accepted with the best tree: what was set aside named in OTLP partial success and on the run, no sibling lost', async () => {
    const chatAt = (id: string, parent: string | null, start: number): SpanSpec => ({ id, parent, name: `chat ${id}`, start, end: start + 1, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' } });
    const spans: SpanSpec[] = [agentSpan('root', null, 0, 5000, 'y'.repeat(10_000)), agentSpan('a', 'b', 10, 50, 'a'), agentSpan('b', 'a', 11, 49, 'b'), chatAt('c-a', 'a', 20), chatAt('c-b', 'b', 30), chatAt('orphan', 'ghost', 60)];
    for (let i = 0; i < 200; i++) {
      spans.push(agentSpan(`d${i}`, i === 0 ? 'root' : `d${i - 1}`, 100 + i, 4000 - i, `deep-${i}`));
      spans.push(chatAt(`dc${i}`, `d${i}`, 100 + i + 0.5));
    }
    const doc = otlpDocument([{ seed: 'bad', spans }]);
    const first = await send(doc);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } };
    for (const reason of ['cycle', 'missing_parent', 'too_deep', 'name_too_long']) expect(body.partialSuccess?.errorMessage).toContain(reason);
    // The same span id again with different content: set aside, named, the first kept.
    const changed = otlpDocument([{ seed: 'bad', spans: [{ ...chatAt('c-a', 'a', 20), name: 'chat changed' }] }]);
    const again = await send(changed);
    expect(again.status).toBe(200);
    const againBody = (await again.json()) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } };
    expect(againBody.partialSuccess).toMatchObject({ rejectedSpans: '1' });
    expect(againBody.partialSuccess?.errorMessage).toContain('duplicate_span');
    const run = (await getRunOrThrow(await runIdOf('acme', 'bad'))).run;
    expect(run.trajectory.filter((s) => s.kind === 'model_turn')).toHaveLength(203);
    expect(new Set(run.setAside?.map((s) => s.reason))).toEqual(new Set(['cycle', 'missing_parent', 'too_deep', 'name_too_long']));
  });
});

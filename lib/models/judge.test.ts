/**
 * The live judge through each provider's client against a wire-level stub on 127.0.0.1 speaking
 * that provider's format: calibration, recording and caching (a second calibration with the same
 * judge makes no provider call), malformed output counted as unscored, missing credentials refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrateJudge, loadCalibrationSet } from '../eval/calibration';
import { ModelJudge } from './model-judge';
import { judgeRequest } from '../eval/judge-prompt';
import { requestDigest } from './recording';
import { referenceKappa } from '../eval/testing/kappa-reference';
import type { JsonValue } from '../harness/json';
import { ConfigError } from '../harness/errors';
import { PrismaJudgeCallStore } from '../db/review/judge';
import { testProviders, type TestDatabase } from '../db/testing/test-databases';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../stockroom/testing/shared-dataset';
import { createJudge } from './create-judge';
import { resetBreakers } from './resilience';
import { ProviderStub, type StubProvider, type StubReply, type StubRequest } from './testing/stub-server';
import path from 'node:path';

const SET = path.join(SHARED_DATASET_DIR, 'judge_calibration', 'calibration_v1.jsonl');

/** The text of the judge's user message, wherever the provider's format puts it. */
function promptText(body: JsonValue): string {
  const texts: string[] = [];
  const walk = (v: JsonValue) => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(body);
  return texts.find((t) => t.includes('Answer to grade:')) ?? '';
}

/** The stub judge's rule (deterministic, unrelated to the labels): pass when the answer has an even length. */
const stubPasses = (answer: string) => answer.length % 2 === 0;
const answerOf = (text: string) => /Answer to grade:\n([\s\S]*?)\n\nContext/.exec(text)?.[1] ?? '';

function verdictReply(req: StubRequest): StubReply {
  const passed = stubPasses(answerOf(promptText(req.body)));
  return { calls: [{ id: `v_${req.path.length}`, name: 'record_verdict', args: { score: passed ? 1 : 0, passed, rationale: 'stub rule' } }] };
}

const ENV: Record<StubProvider, Record<string, string>> = {
  openai: { OPENAI_API_KEY: 'sk-test-judge' },
  anthropic: { ANTHROPIC_API_KEY: 'sk-ant-test-judge' },
  bedrock: { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIAFAKE', AWS_SECRET_ACCESS_KEY: 'x' },
};
const MODEL: Record<StubProvider, string> = { openai: 'openai:gpt-judge', anthropic: 'anthropic:claude-judge', bedrock: 'bedrock:anthropic.judge-v1:0' };
const FAST = { retries: 0, timeoutMs: 5000 };

describe.skipIf(!warnIfNoSharedDataset()).each(['openai', 'anthropic', 'bedrock'] as const)('a live %s judge against its wire-level stub', (provider) => {
  const set = loadCalibrationSet(SET);
  // The bias probes repeat items word for word: each distinct judge request is asked once.
  const distinctRequests = new Set(
    set.items.flatMap((i) => {
      const base = { query: i.query, answer: i.answer, reference: null, context: i.context };
      return [
        requestDigest(judgeRequest({ ...base, expectedFacts: i.expected_facts, forbiddenFacts: i.forbidden_facts, rubric: 'answer_correctness' })),
        requestDigest(judgeRequest({ ...base, expectedFacts: [], forbiddenFacts: [], rubric: 'faithfulness' })),
      ];
    }),
  ).size;
  let stub: ProviderStub;
  let tdb: TestDatabase;
  beforeAll(async () => {
    resetBreakers();
    stub = (await ProviderStub.start(provider)).respondWith(verdictReply);
    tdb = await (await testProviders())[0]!.create(); // SQLite
  });
  afterAll(async () => {
    await stub.close();
    await tdb.drop();
  });
  const judgeIn = (tenant: string) =>
    createJudge({ judge: MODEL[provider], baseUrl: stub.baseURL }, { env: ENV[provider], store: new PrismaJudgeCallStore(tenant, tdb.db), resilience: FAST }) as ModelJudge;

  it('calibrates: agreement and kappa match an independent computation from the verdicts it sent', async () => {
    const judge = judgeIn('kittiwake');
    const result = await calibrateJudge({ judge, set });
    expect(judge.name).toBe(MODEL[provider]);
    expect(stub.requests).toHaveLength(distinctRequests); // one call per distinct item and rubric
    expect(judge.providerCalls + judge.cacheHits).toBe(set.items.length * 2);
    expect(result.unscored).toBe(0);
    const verdicts = set.items.map((i) => (stubPasses(i.answer) ? 'pass' : 'fail'));
    const ref = referenceKappa(verdicts, set.items.map((i) => i.human_label));
    expect(result.overall.agreement).toBeCloseTo(ref.po, 4);
    if (ref.kappa === null) expect(result.overall.kappa).toBeNull();
    else expect(result.overall.kappa).toBeCloseTo(ref.kappa, 4);
  });

  it('records each call (digest, request, mapped and raw response) and a second calibration makes no provider call', async () => {
    const before = stub.requests.length;
    const judge = judgeIn('kittiwake');
    const again = await calibrateJudge({ judge, set });
    expect(stub.requests.length - before).toBe(0);
    expect(judge.providerCalls).toBe(0);
    expect(judge.cacheHits).toBe(set.items.length * 2);
    expect(again.unscored).toBe(0);
    const rows = await tdb.db.prisma.judgeCall.findMany({ where: { tenant: 'kittiwake' } });
    expect(rows).toHaveLength(distinctRequests);
    for (const row of rows.slice(0, 3)) {
      expect(row.requestDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(row.raw).not.toBeNull();
      expect(JSON.stringify(row)).not.toMatch(/sk-test-judge|sk-ant-test-judge|AKIAFAKE/);
    }
  });

  it('keeps each tenant’s recorded calls to itself: another tenant’s calibration asks the provider', async () => {
    const before = stub.requests.length;
    const judge = judgeIn('puffin');
    await calibrateJudge({ judge, set: { ...set, items: set.items.slice(0, 2) } });
    expect(stub.requests.length - before).toBe(4);
  });

  it('counts malformed judge output as unscored, typed, and carries on', async () => {
    stub.respondWith(() => ({ text: 'This answer looks fine to me.' }));
    try {
      const judge = judgeIn('guillemot');
      const result = await calibrateJudge({ judge, set: { ...set, items: set.items.slice(0, 3) } });
      expect(result.unscored).toBe(3);
      expect(result.overall.n).toBe(0);
      expect(result.items[0]!.correctness).toMatchObject({ unscored: 'malformed_output' });
    } finally {
      stub.respondWith(verdictReply);
    }
  });

  it('counts a failed judge call (auth) as unscored with the typed reason', async () => {
    stub.respondWith(() => ({ kind: 'error', status: 401, errorType: provider === 'bedrock' ? 'UnrecognizedClientException' : 'authentication_error' }));
    try {
      const judge = judgeIn('razorbill');
      const result = await calibrateJudge({ judge, set: { ...set, items: set.items.slice(0, 1) } });
      expect(result.items[0]!.correctness).toMatchObject({ unscored: 'model_error', detail: expect.stringMatching(/^auth:/) });
    } finally {
      stub.respondWith(verdictReply);
    }
  });
});

describe('asking for a live judge without its credentials', () => {
  it.each([
    ['openai:gpt-4o-mini', 'OPENAI_API_KEY'],
    ['anthropic:claude-x', 'ANTHROPIC_API_KEY'],
    ['bedrock:amazon.nova', 'AWS_REGION'],
  ])('refuses %s naming %s, before any call', (judge, variable) => {
    let error: unknown;
    try {
      createJudge({ judge }, { env: {} });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain(variable);
  });
});

describe('eval with a live judge', () => {
  it('grades the suite’s answers through the provider, and a malformed verdict leaves its case unscored in the report', async () => {
    const { createStockroomAgent } = await import('../stockroom/agent');
    const { defaultDatasetDir, loadDataset } = await import('../stockroom/dataset/load-dataset');
    const { loadGoldenFile } = await import('../eval/golden');
    const { defaultGoldenPath } = await import('../eval/matrix');
    const { runSuite } = await import('../eval/suite');
    const { buildReport } = await import('../eval/report');
    const { resolveConfig } = await import('../harness/config');
    const dataset = loadDataset(defaultDatasetDir());
    const cases = loadGoldenFile(defaultGoldenPath(dataset)).cases.slice(0, 3);
    const stub = await ProviderStub.start('openai');
    let calls = 0;
    // The first answer-correctness request gets prose instead of a verdict; every other one a verdict.
    stub.respondWith((req) => {
      calls += 1;
      return calls === 1 ? { text: 'fine' } : verdictReply(req);
    });
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({}) });
    try {
      const judge = createJudge({ judge: 'openai:gpt-judge', baseUrl: stub.baseURL }, { env: ENV.openai, resilience: FAST });
      const suite = await runSuite({ agent, cases, judge });
      const report = buildReport({ suite, config: resolveConfig({}), dataset, golden: { path: 'g', sha256: 'x' } });
      expect(report.judge).toEqual({ name: 'openai:gpt-judge', rubricVersion: 'v2', unscored: 1 });
      const [first, ...rest] = report.cases;
      expect(first!.scores).toMatchObject({ judgePassed: null, answerCorrectnessJudge: null, judgeUnscored: 'malformed_output' });
      for (const c of rest) {
        expect(c.scores.judgeRationale).toBe('stub rule');
        expect(c.scores.judgePassed).toBe(stubPasses(c.scores.finalAnswer));
      }
      // answer_correctness counts judged cases only.
      const judged = rest.filter((c) => c.scores.judgePassed).length / rest.length;
      expect(report.metrics.answer_correctness).toBeCloseTo(judged, 4);
    } finally {
      await agent.close();
      await stub.close();
    }
  });
});

/**
 * A live judge's spend is counted apart from the agent's, and a judge call that failed is counted as
 * unscored (issue 22, part 2). The judge is an OpenAI model behind its wire-level stub on 127.0.0.1;
 * the agent is the fake model (it bills nothing), so every dollar in the judge's figure is the judge's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGoldenFile } from '../eval/golden';
import { defaultGoldenPath } from '../eval/matrix';
import { buildReport } from '../eval/report';
import { runSuite } from '../eval/suite';
import { resolveConfig } from '../harness/config';
import type { JsonValue } from '../harness/json';
import { createStockroomAgent } from '../stockroom/agent';
import { defaultDatasetDir, loadDataset } from '../stockroom/dataset/load-dataset';
import { createJudge } from './create-judge';
import { priceFor } from './prices';
import { resetBreakers } from './resilience';
import { ProviderStub, type StubReply, type StubRequest } from './testing/stub-server';

const dataset = loadDataset(defaultDatasetDir());
const USAGE = { input: 700, output: 30 };
const isFaithfulness = (req: StubRequest) => JSON.stringify(req.body as JsonValue).includes('Rubric v2, faithfulness');
const verdict = (usage: typeof USAGE | null = USAGE): StubReply => ({ calls: [{ id: 'v1', name: 'record_verdict', args: { score: 1, passed: true, rationale: 'stub' } }], usage });

describe('a live judge’s spend in a suite', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());

  const suiteWith = async (judgeModel: string, usage: typeof USAGE | null = USAGE) => {
    resetBreakers();
    stub.reset();
    let faithfulness = 0;
    // The first faithfulness request fails (HTTP 400, not retried); every other request gets a verdict.
    stub.respondWith((req) => (isFaithfulness(req) && ++faithfulness === 1 ? { kind: 'error', status: 400, message: 'bad request' } : verdict(usage)));
    const cases = loadGoldenFile(defaultGoldenPath(dataset)).cases.slice(0, 4);
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({}) });
    try {
      const judge = createJudge({ judge: judgeModel, baseUrl: stub.baseURL }, { env: { OPENAI_API_KEY: 'sk-test' }, resilience: { retries: 0, timeoutMs: 5000 } });
      const suite = await runSuite({ agent, cases, judge });
      return { report: buildReport({ suite, config: resolveConfig({}), dataset, golden: { path: 'g', sha256: 'x' } }), requests: stub.requests.length, faithfulness };
    } finally {
      await agent.close();
      stub.respondWith(null);
    }
  };

  it('is counted apart from the agent’s cost, every provider call priced, the failed call counted and its item unscored', async () => {
    const { report, requests, faithfulness } = await suiteWith('openai:gpt-4o-mini');
    expect(faithfulness).toBeGreaterThan(0);
    const price = priceFor('openai:gpt-4o-mini')!;
    const succeeded = requests - 1;
    expect(report.metrics).toMatchObject({ judge_calls: requests, judge_failed_calls: 1 });
    expect(report.metrics.judge_cost_usd).toBeCloseTo((succeeded * (USAGE.input * price.input + USAGE.output * price.output)) / 1e6, 9);
    // The agent (the fake model) billed nothing: the judge's spend is not in the agent's total.
    expect(report.metrics).toMatchObject({ total_cost_usd: 0, cost_known: true });
    // The failed faithfulness call left its item unscored, and the report counts it.
    expect(report.cases.filter((c) => c.scores.faithfulnessUnscored === 'model_error')).toHaveLength(1);
    expect(report.judge?.unscored).toBe(1);
  });

  it('is unknown (null), never $0, for a judge model without a price', async () => {
    const { report, requests } = await suiteWith('openai:judge-without-a-price');
    expect(report.metrics.judge_calls).toBe(requests);
    expect(report.metrics.judge_cost_usd).toBeNull();
  });

  it('counts verdicts that reported no usage as unreported, and their cost unknown, never $0 (issue 40)', async () => {
    const { report, requests } = await suiteWith('openai:gpt-4o-mini', null);
    expect(report.metrics.judge_calls).toBe(requests);
    expect(report.metrics.judge_unreported_calls).toBe(requests - 1);
    expect(report.metrics.judge_cost_usd).toBeNull();
  });
});

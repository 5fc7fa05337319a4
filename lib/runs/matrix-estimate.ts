/**
 * What a live matrix will cost and roughly how long it takes, measured before it runs (issue 35):
 * the offline fake model runs the same golden cases, prompts and tools once under `none`, and its
 * per-run mean model calls and tokens are scaled to settings × cases × epochs and priced at the live
 * model's price (live-estimate.ts). `matrix --estimate` and the matrix page's confirmation both come
 * here. The provider's per-minute limits are handed in (they live in lib/jobs, a higher floor).
 */
import { FAKE_MODEL, isOfflineModel, parseModelName, resolveConfig, type HarnessConfig } from '../harness';
import { MATRIX_SETTINGS, runSuite, type GoldenFile, type SuiteResult } from '../eval';
import { priceFor } from '../models';
import { createStockroomAgent, type Dataset } from '../stockroom';
import { estimateLive, type LiveEstimate, type LiveEstimateInput } from './live-estimate';

export interface MatrixEstimateInput {
  dataset: Dataset;
  golden: GoldenFile;
  /** The matrix's configuration with its live model. */
  config: HarnessConfig;
  epochs: number;
  /** The per-minute limits of a provider (null: none configured). */
  limitOf: (provider: string) => LiveEstimateInput['limit'];
}

/** Null for an offline model (the fake models cost nothing). */
export async function estimateMatrix(input: MatrixEstimateInput): Promise<LiveEstimate | null> {
  const { config } = input;
  if (isOfflineModel(config.model)) return null;
  const agent = await createStockroomAgent({ dataset: input.dataset, config: resolveConfig({ ...config, model: FAKE_MODEL, mode: 'mock', modelBaseUrl: null, usdBudget: null }) });
  let results: SuiteResult['results'];
  try {
    results = (await runSuite({ agent, cases: input.golden.cases, judge: null })).results;
  } finally {
    await agent.close();
  }
  const n = results.length || 1;
  const mean = (f: (r: SuiteResult['results'][number]) => number) => results.reduce((a, r) => a + f(r), 0) / n;
  const provider = parseModelName(config.model)?.provider ?? null;
  return estimateLive({
    settings: MATRIX_SETTINGS.length,
    cases: input.golden.cases.length,
    epochs: input.epochs,
    perRun: {
      inputTokens: mean((r) => r.scores.inputTokens),
      outputTokens: mean((r) => r.scores.outputTokens),
      modelCalls: mean((r) => r.scores.modelCalls),
      source: 'the offline fake model on the same cases, prompts and tools; a live model calls and answers differently',
    },
    price: priceFor(config.model),
    limit: provider ? input.limitOf(provider) : null,
  });
}

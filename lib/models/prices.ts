/**
 * Model prices from the versioned `config/prices.json` (USD per million input, output and cached
 * input tokens, each with its date and source), and the CostMeter a run is priced with. A model
 * without a price has an unknown cost; a USD budget for such a model is refused before it runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isOfflineModel, parseModelName, type HarnessConfig } from '../harness';
import type { CostMeter, TokenCounts } from '../harness';
import { ConfigError } from '../harness';

const PriceSchema = z.object({
  provider: z.string().min(1),
  model: z.string().min(1),
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cached: z.number().nonnegative(),
  /**
   * Prompt tokens written to the provider's cache (Anthropic, Bedrock bill them above the input rate).
   * Absent: the provider does not bill cache writes apart (OpenAI), so they cost the input rate.
   */
  cache_write: z.number().nonnegative().optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD'),
  source: z.string().min(1),
});
export type Price = z.infer<typeof PriceSchema>;

export const PriceFileSchema = z.object({ version: z.string().min(1), note: z.string().optional(), prices: z.array(PriceSchema) });
export type PriceFile = z.infer<typeof PriceFileSchema>;

export const DEFAULT_PRICES_PATH = path.resolve(process.cwd(), 'config/prices.json');

let cached: PriceFile | null = null;

/** Reads and validates a price file; a bad file names the field. */
export function loadPrices(file = DEFAULT_PRICES_PATH): PriceFile {
  if (file === DEFAULT_PRICES_PATH && cached) return cached;
  const parsed = PriceFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError('prices', `${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  if (file === DEFAULT_PRICES_PATH) cached = parsed.data;
  return parsed.data;
}

export function priceFor(modelId: string, prices: PriceFile = loadPrices()): Price | null {
  const name = parseModelName(modelId);
  if (!name) return null;
  return prices.prices.find((p) => p.provider === name.provider && p.model === name.model) ?? null;
}

/**
 * USD for some tokens at a price: prompt tokens read from the cache at the cached rate, those written
 * to it at the cache-write rate, the rest of the prompt at the input rate, and the output.
 */
export function usdAt(price: Price, t: TokenCounts): number {
  const written = t.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, t.inputTokens - t.cachedTokens - written);
  const writeRate = price.cache_write ?? price.input;
  return (uncached * price.input + t.cachedTokens * price.cached + written * writeRate + t.outputTokens * price.output) / 1_000_000;
}

/**
 * The meter for a configuration's model, or null for the fake model (mock runs cost nothing).
 * Refuses a USD budget for a model without a price: the budget could never be honoured.
 */
export function costMeterFor(config: Pick<HarnessConfig, 'model' | 'usdBudget'>, prices?: PriceFile): CostMeter | null {
  if (isOfflineModel(config.model)) return null;
  const file = prices ?? loadPrices();
  const price = priceFor(config.model, file);
  if (!price) {
    if (config.usdBudget !== null) {
      throw new ConfigError('STOCKROOM_USD_BUDGET', `--usd-budget needs a price for ${config.model}; config/prices.json (version ${file.version}) has none`);
    }
    return { usd: () => null, note: `no price for ${config.model} in config/prices.json (version ${file.version}): cost unknown` };
  }
  return {
    usd: (t) => usdAt(price, t),
    note:
      price.cache_write === undefined
        ? `${config.model} at $${price.input}/$${price.output}/$${price.cached} per M input/output/cached tokens (${price.date}, ${price.source})`
        : `${config.model} at $${price.input}/$${price.output}/$${price.cached}/$${price.cache_write} per M input/output/cached/cache-write tokens (${price.date}, ${price.source})`,
  };
}

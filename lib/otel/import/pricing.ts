/**
 * Pricing an imported model call: its provider id (providers.ts) and model looked up in
 * config/prices.json directly, never through the live-model name parser (which refuses providers
 * the harness cannot call). A call whose model has no price costs null, with a note naming it; a
 * run, or an agent, with any such call costs null too: unknown is never 0, and never a throw.
 */
import { loadPrices, usdAt, type Price, type PriceFile } from '../../models';

/** Providers billed at another's list price: Azure OpenAI's global deployments at OpenAI's. */
const PRICED_AS: Record<string, string> = { azure: 'openai' };

export interface CallToPrice {
  providerId: string | null;
  /** The models the call names, most specific first (response model, then request model). */
  models: Array<string | null>;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens?: number;
}

export interface CallCost {
  usd: number | null;
  note: string;
  /** `provider:model` of a call without a price (null when priced). */
  missing: string | null;
}

/** The spellings of a model the table may hold it under: as sent, without `models/`, without a date suffix. */
function modelKeys(model: string): string[] {
  const bare = model.replace(/^models\//, '');
  return [...new Set([model, bare, bare.replace(/-\d{4}-\d{2}-\d{2}$/, ''), bare.replace(/-\d{8}$/, '')])];
}

/** Lookups already made, per price file (a trace's calls name a handful of models, thousands of times). */
const looked = new WeakMap<PriceFile, Map<string, Price | null>>();

export function lookupPrice(providerId: string | null, model: string | null, file: PriceFile = loadPrices()): Price | null {
  if (providerId === null || model === null) return null;
  const memo = looked.get(file) ?? (looked.set(file, new Map()), looked.get(file)!);
  const key = `${providerId}\u0000${model}`;
  if (memo.has(key)) return memo.get(key)!;
  const price = findPrice(providerId, model, file);
  memo.set(key, price);
  return price;
}

function findPrice(providerId: string, model: string, file: PriceFile): Price | null {
  const providers = [providerId, ...(PRICED_AS[providerId] ? [PRICED_AS[providerId]] : [])];
  for (const provider of providers) {
    for (const key of modelKeys(model)) {
      const price = file.prices.find((p) => p.provider === provider && p.model === key);
      if (price) return price;
    }
  }
  return null;
}

/** One call's cost; never throws. */
export function priceCall(call: CallToPrice, file: PriceFile = loadPrices()): CallCost {
  const models = call.models.filter((m): m is string => m !== null && m !== '');
  for (const model of models) {
    const price = lookupPrice(call.providerId, model, file);
    if (price) {
      const usd = usdAt(price, { inputTokens: call.inputTokens, outputTokens: call.outputTokens, cachedTokens: call.cachedTokens, cacheWriteTokens: call.cacheWriteTokens ?? 0 });
      return { usd, note: `${price.provider}:${price.model} at $${price.input}/$${price.output} per M input/output tokens (${price.date}, ${price.source})`, missing: null };
    }
  }
  const missing = `${call.providerId ?? 'unknown provider'}:${models[0] ?? 'unknown model'}`;
  return { usd: null, note: `no price for ${missing} in config/prices.json (version ${file.version}): cost unknown`, missing };
}

/** The sum of some calls' costs: null (with the unpriced models named) when any is unknown. */
export function sumCosts(costs: readonly CallCost[], what: string, file: PriceFile = loadPrices()): { usd: number | null; note: string } {
  if (costs.length === 0) return { usd: null, note: `${what}: no model calls, cost not recorded` };
  const missing = [...new Set(costs.flatMap((c) => (c.missing ? [c.missing] : [])))];
  if (missing.length > 0) return { usd: null, note: `no price for ${missing.join(', ')} in config/prices.json (version ${file.version}): cost unknown` };
  return { usd: costs.reduce((n, c) => n + c.usd!, 0), note: `${what} priced from its tokens with config/prices.json (version ${file.version})` };
}

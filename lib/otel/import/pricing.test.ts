import { describe, expect, it } from 'vitest';
import { loadPrices } from '../../models/prices';
import { lookupPrice, priceCall, sumCosts } from './pricing';
import { normaliseProvider } from './providers';

const call = (sent: string, model: string) => ({ providerId: normaliseProvider(sent), models: [model], inputTokens: 1_000_000, outputTokens: 1_000_000, cachedTokens: 0 });

describe('pricing an imported call', () => {
  it('prices the common models of Google, Mistral, Groq, xAI, DeepSeek and Cohere as producers spell their providers', () => {
    for (const [sent, model] of [
      ['gcp.gemini', 'gemini-2.5-flash'],
      ['google.generative-ai', 'models/gemini-2.5-flash'],
      ['mistral_ai', 'mistral-large-latest'],
      ['groq.chat', 'llama-3.3-70b-versatile'],
      ['x_ai', 'grok-3-mini'],
      ['deepseek', 'deepseek-chat'],
      ['cohere', 'command-r-08-2024'],
    ]) {
      const price = lookupPrice(normaliseProvider(sent!), model!)!;
      expect(price, `${sent} ${model}`).not.toBeNull();
      expect(priceCall(call(sent!, model!)).usd).toBeCloseTo(price.input + price.output, 9);
    }
  });

  it('gives every price a date and a source', () => {
    for (const p of loadPrices().prices) expect([p.date, p.source.length > 0]).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), true]);
  });

  it('prices a dated model name by its undated entry, and Azure OpenAI at OpenAI’s list price', () => {
    expect(lookupPrice('openai', 'gpt-4o-mini-2024-07-18')?.model).toBe('gpt-4o-mini');
    expect(lookupPrice('azure', 'gpt-4o-mini')?.provider).toBe('openai');
  });

  it('never throws: an unknown provider or model costs null with a note naming it, and so does any sum with it', () => {
    const unknown = priceCall(call('stub.chat', 'stub-model'));
    expect(unknown).toMatchObject({ usd: null, missing: 'stub:stub-model' });
    expect(unknown.note).toContain('stub:stub-model');
    expect(priceCall({ providerId: null, models: [null], inputTokens: 1, outputTokens: 1, cachedTokens: 0 }).usd).toBeNull();
    const sum = sumCosts([priceCall(call('openai', 'gpt-4o')), unknown], 'run');
    expect(sum.usd).toBeNull();
    expect(sum.note).toContain('stub:stub-model');
  });
});

/** The live estimate with numbers worked by hand: runs, tokens, price, and the provider limits' floor on time. */
import { describe, expect, it } from 'vitest';
import { estimateLive, formatLiveEstimate } from './live-estimate';

const perRun = { inputTokens: 2000, outputTokens: 100, modelCalls: 2, source: 'test means' };
const price = { provider: 'openai', model: 'm', input: 0.15, output: 0.6, cached: 0.075, date: '2025-06-01', source: 'x' };

describe('estimateLive', () => {
  it('prices 5 settings × 61 cases × 5 epochs = 1,525 runs at $0.15/$0.60 per million: $0.55', () => {
    // 1525 · 2000 = 3,050,000 input → $0.4575; 1525 · 100 = 152,500 output → $0.0915; total $0.549.
    const e = estimateLive({ settings: 5, cases: 61, epochs: 5, perRun, price, limit: null });
    expect(e).toMatchObject({ runs: 1525, modelCalls: 3050, inputTokens: 3_050_000, outputTokens: 152_500, minMinutes: null });
    expect(e.usd).toBeCloseTo(0.549, 6);
  });

  it('takes the slower of the rpm and tpm floors: 3,050 calls at 500 rpm = 6.1 min; 3,202,500 tokens at 200,000 tpm = 16.0 min', () => {
    const e = estimateLive({ settings: 5, cases: 61, epochs: 5, perRun, price, limit: { requestsPerMinute: 500, tokensPerMinute: 200_000 } });
    expect(e.minMinutes).toBeCloseTo(16.0125, 6);
    expect(estimateLive({ settings: 5, cases: 61, epochs: 5, perRun, price, limit: { requestsPerMinute: 500, tokensPerMinute: null } }).minMinutes).toBeCloseTo(6.1, 6);
  });

  it('says the cost is unknown for a model without a price, never $0', () => {
    const e = estimateLive({ settings: 1, cases: 10, epochs: 1, perRun, price: null, limit: null });
    expect(e.usd).toBeNull();
    expect(formatLiveEstimate(e, 'openai:new')).toContain('cost unknown (no price for openai:new in config/prices.json)');
    expect(formatLiveEstimate(e, 'openai:new')).toContain('no provider rpm/tpm limit configured');
  });
});

import { describe, expect, it } from 'vitest';
import { configFromEnv, DEFAULT_CONFIG, parseWeaknesses, resolveConfig } from './config';
import { ConfigError } from './errors';

describe('configuration', () => {
  it("starts from the reference harness's defaults", () => {
    expect(resolveConfig()).toEqual(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG).toMatchObject({
      mode: 'mock',
      maxSteps: 8,
      tokenBudget: 20000,
      maxTokens: 1024,
      wallClockTimeoutS: 60,
      repeatCallWindow: 3,
      compactionTokenThreshold: 6000,
      compactionKeepTurns: 4,
      weaknesses: [],
    });
  });

  it('reads the environment; empty values count as unset; weakness lists are trimmed, de-duplicated and sorted', () => {
    const c = resolveConfig(
      configFromEnv({ MAX_STEPS: '5', TOKEN_BUDGET: ' ', STOCKROOM_WEAKNESSES: ' naive_retry, ambiguous_tool_desc,,naive_retry ', STOCKROOM_MODE: 'MOCK' }),
    );
    expect(c.maxSteps).toBe(5);
    expect(c.tokenBudget).toBe(20000);
    expect(c.weaknesses).toEqual(['ambiguous_tool_desc', 'naive_retry']);
    expect(c.mode).toBe('mock');
  });

  it('refuses an unknown weakness flag, naming it and listing the valid ones', () => {
    expect(() => parseWeaknesses('naive_retry,foo')).toThrow(
      "Unknown weakness flag(s) ['foo']; valid flags: ['ambiguous_tool_desc', 'injection_unguarded', 'naive_retry', 'oversized_payload']",
    );
  });

  it('refuses a value that does not parse, naming the variable', () => {
    expect(() => configFromEnv({ MAX_STEPS: 'eight' })).toThrow("MAX_STEPS must be an integer, got 'eight'");
    expect(() => configFromEnv({ WALL_CLOCK_TIMEOUT_S: 'soon' })).toThrow("WALL_CLOCK_TIMEOUT_S must be a number, got 'soon'");
    expect(() => configFromEnv({ STOCKROOM_TOOL_TRANSPORT: 'carrier-pigeon' })).toThrow(/STOCKROOM_TOOL_TRANSPORT must be one of local, mcp-memory, mcp-stdio, mcp-http/);
  });

  it('validates ranges with the reference messages before anything runs', () => {
    const cases: [Record<string, number>, string][] = [
      [{ maxSteps: 0 }, 'MAX_STEPS must be >= 1'],
      [{ maxTokens: 0 }, 'MAX_TOKENS must be >= 1'],
      [{ tokenBudget: 100, maxTokens: 1024 }, 'TOKEN_BUDGET must be >= MAX_TOKENS'],
      [{ repeatCallWindow: 1 }, 'REPEAT_CALL_WINDOW must be >= 2'],
      [{ compactionKeepTurns: 0 }, 'COMPACTION_KEEP_TURNS must be >= 1'],
      [{ wallClockTimeoutS: 0 }, 'WALL_CLOCK_TIMEOUT_S must be > 0'],
    ];
    for (const [overrides, message] of cases) {
      let err: unknown;
      try {
        resolveConfig(overrides);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toBe(message);
    }
  });
});

describe('model selection', () => {
  const refusal = (f: () => unknown): ConfigError => {
    try {
      f();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error('expected a ConfigError');
  };

  it('refuses STOCKROOM_MODE=live with no model named (it used to run the fake model and store mode live)', () => {
    const err = refusal(() => resolveConfig(configFromEnv({ STOCKROOM_MODE: 'live' })));
    expect(err.key).toBe('STOCKROOM_MODE');
    expect(err.message).toMatch(/STOCKROOM_MODEL/);
  });

  it('a live model implies live mode; the fake model stays mock', () => {
    expect(resolveConfig(configFromEnv({ STOCKROOM_MODEL: 'openai:gpt-4o-mini' }))).toMatchObject({ mode: 'live', model: 'openai:gpt-4o-mini' });
    expect(resolveConfig(configFromEnv({ STOCKROOM_MODEL: 'fake' }))).toMatchObject({ mode: 'mock', model: 'fake' });
  });

  it('refuses an unknown provider, a provider without a model, and openai-compatible without a base URL', () => {
    expect(refusal(() => configFromEnv({ STOCKROOM_MODEL: 'gemini:pro' })).key).toBe('STOCKROOM_MODEL');
    expect(refusal(() => configFromEnv({ STOCKROOM_MODEL: 'openai:' })).key).toBe('STOCKROOM_MODEL');
    const err = refusal(() => resolveConfig(configFromEnv({ STOCKROOM_MODEL: 'openai-compatible:llama' })));
    expect(err.key).toBe('STOCKROOM_MODEL_BASE_URL');
    expect(refusal(() => resolveConfig(configFromEnv({ STOCKROOM_MODEL: 'openai:x', STOCKROOM_MODEL_BASE_URL: 'ftp://x' }))).key).toBe('STOCKROOM_MODEL_BASE_URL');
  });
});

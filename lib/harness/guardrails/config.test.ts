import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors';
import { guardrailsOn, parseGuardrails, parseGuardrailsJson } from './config';

describe('guardrails configuration', () => {
  it('fills defaults: retry, two retries, nothing on', () => {
    const g = parseGuardrails({});
    expect(g).toMatchObject({ on_violation: 'retry', max_retries: 2, forbid_tools: [], detectors: {}, llm_guard: null });
    expect(guardrailsOn(g)).toEqual([]);
  });
  it('normalises detectors to { redact } and lists what is on', () => {
    const g = parseGuardrails({ require_tools: ['get_stock_level'], detectors: { no_pii: true, no_secrets: { redact: true }, no_injection: false } });
    expect(g.detectors).toEqual({ no_pii: { redact: false }, no_secrets: { redact: true } });
    expect(guardrailsOn(g)).toEqual(['require_tools', 'no_pii', 'no_secrets']);
    expect(parseGuardrails(g)).toEqual(g); // what a run records parses back to itself
  });
  it.each([
    [{ on_violation: 'ignore' }, 'guardrails.on_violation'],
    [{ max_retries: 11 }, 'guardrails.max_retries'],
    [{ forbid_tools: ['ok', ''] }, 'guardrails.forbid_tools[1]'],
    [{ detectors: { no_pii: 'yes' } }, 'guardrails.detectors.no_pii'],
    [{ detectors: { no_phone: true } }, 'guardrails.detectors.no_phone'],
    [{ llm_guard: { policy: '' } }, 'guardrails.llm_guard.policy'],
    [{ require_tool: ['x'] }, 'guardrails.require_tool'],
  ])('refuses %j naming %s', (value, field) => {
    try {
      parseGuardrails(value);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).key).toBe(field);
      expect((err as Error).message).toContain(field);
    }
  });
  it('refuses text that is not JSON', () => {
    expect(() => parseGuardrailsJson('{require_tools:')).toThrow(/guardrails: not valid JSON/);
  });
});

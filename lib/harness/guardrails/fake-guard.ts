/**
 * The deterministic guard judge of mock mode. It does not understand a policy: it holds the answer
 * to the terms the policy sentence quotes ('…' or "…") and says so in every reason, so a run with
 * the fake judge is never mistaken for one judged by a model.
 */
import type { ConverseRequest, ModelClient } from '../model/client';
import type { ModelResponse } from '../types';
import { GUARD_ANSWER_PREFIX, GUARD_SYSTEM_PREFIX } from './llm-guard';

export const FAKE_GUARD_MODEL_ID = 'fake.guardrail-judge-v1';

function quotedTerms(policy: string): string[] {
  return [...policy.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => (m[1] ?? m[2] ?? '').toLowerCase()).filter(Boolean);
}

export class FakeGuardModel implements ModelClient {
  readonly modelId = FAKE_GUARD_MODEL_ID;

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const policyLine = request.system.startsWith(GUARD_SYSTEM_PREFIX) ? request.system.slice(GUARD_SYSTEM_PREFIX.length).split('\n')[0]! : '';
    const first = request.messages[0]?.content[0];
    const answer = first && 'text' in first ? first.text.replace(GUARD_ANSWER_PREFIX, '').toLowerCase() : '';
    const terms = quotedTerms(policyLine);
    const hit = terms.find((t) => answer.includes(t));
    const verdict =
      terms.length === 0
        ? { severity: 'none', reason: 'fake judge: the policy quotes no terms, and the fake judge checks quoted terms only' }
        : hit
          ? { severity: 'high', reason: `fake judge: the answer contains the quoted term "${hit}"` }
          : { severity: 'none', reason: `fake judge: none of the quoted terms (${terms.join(', ')}) appear in the answer` };
    const text = JSON.stringify(verdict);
    return { text, toolCalls: [], stopReason: 'end_turn', inputTokens: 0, outputTokens: Math.ceil(text.length / 4), latencyMs: 0, modelId: this.modelId, provider: 'fake' };
  }
}

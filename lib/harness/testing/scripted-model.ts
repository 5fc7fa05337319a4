/**
 * Test doubles for the model seam. `scriptedModel` replays fixed turns through the same fake
 * client the product uses (token counts and all); `failingModel` throws like a broken endpoint.
 */
import type { JsonValue } from '../json';
import { ModelCallError } from '../errors';
import type { ConverseRequest, ModelClient } from '../model/client';
import { FakeModelClient, type ScriptTurn } from '../model/fake/fake-client';
import { HeuristicPlanner } from '../model/fake/planner';
import type { FloatKeys } from '../pyjson';
import type { ModelResponse } from '../types';

/** One scripted turn: tool calls `[name, input]`, or a final text. */
export type TurnSpec = { calls: [string, JsonValue][] } | { text: string };

export function scriptedModel(turns: readonly TurnSpec[], floatKeys?: FloatKeys): FakeModelClient {
  const script: ScriptTurn[] = turns.map((t) =>
    'text' in t ? { text: t.text } : { tool_calls: t.calls.map(([name, input]) => ({ name, input })) },
  );
  const planner = new HeuristicPlanner({ productVocabulary: new Set() });
  return new FakeModelClient({ planner, script, floatKeys });
}

/** A model that repeats the same call forever (for loop and budget tests). */
export function repeatingModel(name: string, input: JsonValue, times = 100): FakeModelClient {
  return scriptedModel(Array.from({ length: times }, () => ({ calls: [[name, input]] as [string, JsonValue][] })));
}

/** A model whose every call fails. */
export function failingModel(kind = 'throttling', message = 'rate exceeded'): ModelClient {
  return {
    modelId: 'test.failing',
    converse(_req: ConverseRequest): Promise<ModelResponse> {
      return Promise.reject(new ModelCallError(kind, message));
    },
  };
}

/**
 * The noisy fake model: the deterministic fake's turn, except that on a seeded share of calls it
 * strays the way a sampled model does — another plausible tool, an early answer, an answer that
 * drops its details. Same seed, same case, same epoch: the same turns, so a class sees variance
 * offline and two runs with one seed give identical reports. Temperature 0 is exactly the fake model.
 */
import type { ModelResponse, ToolSpec } from '../../types';
import type { ConverseRequest, ModelClient } from '../client';
import { NOISY_STRAY_PER_TEMPERATURE } from '../../tunables';

export const NOISY_FAKE_MODEL_ID = 'fake.stockroom-planner-v1+noise';
/** The early answer of a turn that gives up before its tool calls. */
export const NOISY_EARLY_ANSWER = 'I could not find enough information to answer that.';

export interface NoisyFakeOptions {
  /** The deterministic fake model of the run (its turn is the one sampled around). */
  inner: ModelClient;
  /** Uniform numbers in [0, 1), seeded per run. */
  random: () => number;
  temperature: number;
}

/** Another tool of the same family (the name's first word: get_, list_, create_…), else any other tool; null when there is none. */
function plausibleOther(name: string, tools: readonly ToolSpec[], random: () => number): string | null {
  const family = name.split('_')[0];
  const others = tools.map((t) => t.name).filter((n) => n !== name);
  const kin = others.filter((n) => n.split('_')[0] === family);
  const pool = kin.length > 0 ? kin : others;
  return pool.length === 0 ? null : pool[Math.floor(random() * pool.length)]!;
}

/** The answer cut to its first sentence, or with its figures blurred when it has only one. */
function vaguer(text: string): string {
  const first = /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim())?.[0];
  if (first && first.length < text.trim().length) return first;
  return text.replace(/\d+(?:[.,]\d+)*/g, 'several');
}

const outputTokensOf = (text: string): number => Math.max(1, Math.floor(text.length / 4));

export class NoisyFakeModelClient implements ModelClient {
  readonly modelId = NOISY_FAKE_MODEL_ID;
  private readonly strayChance: number;

  constructor(private readonly options: NoisyFakeOptions) {
    this.strayChance = Math.min(1, Math.max(0, options.temperature * NOISY_STRAY_PER_TEMPERATURE));
  }

  async converse(request: ConverseRequest): Promise<ModelResponse> {
    const response = { ...(await this.options.inner.converse(request)), modelId: this.modelId };
    // One draw per call whatever happens, so the sequence of a run depends only on its seed.
    const roll = this.options.random();
    const kind = this.options.random();
    if (roll >= this.strayChance) return response;
    const [first, ...rest] = response.toolCalls;
    if (first) {
      const other = kind < 0.5 ? plausibleOther(first.name, request.tools, this.options.random) : null;
      if (other) return { ...response, toolCalls: [{ ...first, name: other }, ...rest] };
      return { ...response, text: NOISY_EARLY_ANSWER, toolCalls: [], stopReason: 'end_turn', outputTokens: outputTokensOf(NOISY_EARLY_ANSWER) };
    }
    if (response.text === null || response.text.trim() === '') return response;
    const text = vaguer(response.text);
    return { ...response, text, outputTokens: response.outputTokens === null ? null : Math.min(response.outputTokens, outputTokensOf(text)) };
  }
}

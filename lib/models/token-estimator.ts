/**
 * The local token count budgets use for a call whose answer reported no usage: js-tiktoken with
 * OpenAI's o200k_base encoding. For other providers' models it is an estimate (their tokenizers are
 * not public), which is why every such count is stored as an estimate naming this tokenizer and is
 * never shown as reported. The encoding's ranks are large, so they load on the first count only.
 */
import { createRequire } from 'node:module';
import type { TokenEstimator } from '../harness';

type Encoder = { encode(text: string, allowedSpecial?: string[], disallowedSpecial?: string[]): number[] };

let encoder: Encoder | null | undefined;

function loadEncoder(): Encoder | null {
  if (encoder !== undefined) return encoder;
  try {
    // Loaded synchronously on first use: count() is called from the loop's bookkeeping, which is synchronous.
    const require = createRequire(import.meta.url);
    const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: ConstructorParameters<typeof Tiktoken>[0] } & ConstructorParameters<typeof Tiktoken>[0];
    encoder = new Tiktoken(ranks.default ?? ranks);
  } catch {
    encoder = null; // no estimate can be made: a budget then fails closed (USAGE_UNKNOWN)
  }
  return encoder;
}

export const TIKTOKEN_ESTIMATOR: TokenEstimator = {
  name: 'js-tiktoken o200k_base (estimated)',
  count(text: string): number | null {
    const e = loadEncoder();
    if (!e) return null;
    // Special-token text ("<|endoftext|>") in a tool result is ordinary text here, never a control token.
    return e.encode(text, [], []).length;
  },
};

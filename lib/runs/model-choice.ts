import 'server-only';
/**
 * The dashboard's model choice, resolved on the server. The browser sends only a name (`fake` or
 * `<provider>:<model>`); which providers may be picked, their credentials and the openai-compatible
 * endpoint (STOCKROOM_MODEL_BASE_URL) are this process's own environment. Nothing here returns a
 * credential's value: the picker learns provider names, never keys or URLs.
 */
import { FAKE_MODEL, NOISY_FAKE_MODEL, parseModelName, type HarnessConfig, type ModelProvider } from '../harness';
import { availableProviders, missingCredential, type Env } from '../models';
import type { ModelChoice } from '../schemas/run-settings';
import { InputError } from './errors';

/** The server's endpoint for openai-compatible models (never taken from the browser). */
export const BASE_URL_VARIABLE = 'STOCKROOM_MODEL_BASE_URL';

const baseUrlOf = (env: Env): string | null => env[BASE_URL_VARIABLE]?.trim() || null;

/**
 * The providers the model picker lists besides `fake`: those whose credentials the server holds;
 * openai-compatible only when the server names its endpoint.
 */
export function pickableProviders(env: Env = process.env): ModelProvider[] {
  return availableProviders(env).filter((p) => p !== 'openai-compatible' || baseUrlOf(env) !== null);
}

/**
 * The harness's model settings for a choice, or InputError on `model` naming the variable the server
 * lacks. Only openai-compatible gets a base URL: a provider's own key is never sent to another host.
 */
export function modelSettings(choice: ModelChoice, env: Env = process.env): Pick<HarnessConfig, 'model' | 'modelBaseUrl'> {
  if (choice === NOISY_FAKE_MODEL) return { model: NOISY_FAKE_MODEL, modelBaseUrl: null };
  const name = parseModelName(choice);
  if (!name) return { model: FAKE_MODEL, modelBaseUrl: null };
  const missing = missingCredential(name.provider, env);
  if (missing) throw new InputError('model', `${name.provider} models are not available: the server has no ${missing} set.`);
  if (name.provider !== 'openai-compatible') return { model: choice, modelBaseUrl: null };
  const baseUrl = baseUrlOf(env);
  if (!baseUrl) throw new InputError('model', `openai-compatible models are not available: the server has no ${BASE_URL_VARIABLE} set.`);
  return { model: choice, modelBaseUrl: baseUrl };
}

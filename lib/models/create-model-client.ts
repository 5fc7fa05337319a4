/**
 * The model client a configuration names: null for the fake model (the agent builds it per case),
 * otherwise a provider client wrapped in the resilience layer. Credentials are checked here, before
 * any run starts.
 */
import { parseModelName, type HarnessConfig } from '../harness';
import type { ModelClient } from '../harness';
import type { LiveModelContext } from '../stockroom';
import { AnthropicModelClient } from './anthropic-client';
import { BedrockModelClient } from './bedrock-client';
import { awsRegion } from './aws-chain';
import { requireCredentials, type Env } from './credentials';
import { MODEL_SERVER_MODEL } from './model-server/model-name';
import { OpenAIModelClient } from './openai-client';
import { RecordingModelClient } from './recording';
import { ResilientModelClient, type AttemptGate, type ResilienceOptions } from './resilience';

export interface LiveModelOptions {
  env?: Env;
  resilience?: Partial<ResilienceOptions>;
  /** Passed by every attempt before it is sent (the per-provider limits workers share). */
  gate?: AttemptGate;
}

/** Builds a client for one run. */
export type LiveModelFactory = (run: LiveModelContext) => ModelClient;

/**
 * Request metadata for the project's own offline model server: the golden case id and the run's
 * weakness flags. It selects a case's scripted turns by the id and gives its simulated model the same
 * dispositions the fake model has under those flags. Sent only with its model (`stockroom-fake`, the one
 * model it serves): a third party's server is never told which evaluation case or flags it is serving.
 */
export function runMetadata(run: LiveModelContext): Record<string, string> {
  return {
    ...(run.caseId ? { stockroom_case_id: run.caseId } : {}),
    stockroom_weaknesses: [...run.weaknesses].sort().join(','),
  };
}

/**
 * The bare provider client a configuration names (no resilience, no recording): used for the agent and
 * for a live judge. Its SDK neither retries nor times out: the resilience layer does both.
 */
export function providerClient(config: Pick<HarnessConfig, 'model' | 'modelBaseUrl'> & Partial<Pick<HarnessConfig, 'stream'>>, env: Env, run: LiveModelContext): ModelClient {
  const name = parseModelName(config.model);
  if (!name) throw new Error('the fake model has no provider client');
  const baseURL = config.modelBaseUrl ?? undefined;
  const stream = config.stream === true;
  switch (name.provider) {
    case 'openai':
      return new OpenAIModelClient({ provider: 'openai', model: name.model, apiKey: env.OPENAI_API_KEY!, baseURL, stream });
    case 'openai-compatible':
      return new OpenAIModelClient({
        provider: 'openai-compatible',
        model: name.model,
        // The SDK insists on a key; local servers ignore it.
        apiKey: env.OPENAI_COMPATIBLE_API_KEY?.trim() || 'not-needed',
        baseURL,
        stream,
        ...(name.model === MODEL_SERVER_MODEL ? { metadata: runMetadata(run) } : {}),
      });
    case 'anthropic':
      return new AnthropicModelClient({ model: name.model, apiKey: env.ANTHROPIC_API_KEY!, baseURL, stream });
    case 'bedrock':
      return new BedrockModelClient({
        model: name.model,
        // From the environment or the profile in use (the same lookup as the credential check).
        region: awsRegion(env)!,
        endpoint: baseURL,
        stream,
        // Static keys from this environment; otherwise the SDK's own chain (profile, web identity, container role).
        credentials:
          env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
            ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined }
            : undefined,
      });
  }
}

/**
 * Checks credentials and returns a factory of resilient clients, or null when the configuration
 * names the fake model. Throws ConfigError naming a missing variable.
 */
export function liveModelFactory(
  config: Pick<HarnessConfig, 'model' | 'modelBaseUrl'> & Partial<Pick<HarnessConfig, 'modelTimeoutS' | 'modelRetries' | 'stream'>>,
  options: LiveModelOptions = {},
): LiveModelFactory | null {
  const name = parseModelName(config.model);
  if (!name) return null;
  const env = options.env ?? process.env;
  requireCredentials(name.provider, env);
  // Every live call is recorded (request digest + response) so the run can be replayed against a changed harness.
  const resilience = { ...resilienceOf(config), ...options.resilience };
  return (run) => new RecordingModelClient(new ResilientModelClient(providerClient(config, env, run), resilience, options.gate));
}

/** The per-attempt timeout and retry count a configuration sets (MODEL_CALL_TIMEOUT_S, MODEL_CALL_RETRIES). */
export function resilienceOf(config: Partial<Pick<HarnessConfig, 'modelTimeoutS' | 'modelRetries'>>): Partial<ResilienceOptions> {
  return {
    ...(config.modelTimeoutS !== undefined ? { timeoutMs: Math.round(config.modelTimeoutS * 1000) } : {}),
    ...(config.modelRetries !== undefined ? { retries: config.modelRetries } : {}),
  };
}

/**
 * The model client a configuration names: null for the fake model (the agent builds it per case),
 * otherwise a provider client wrapped in the resilience layer. Credentials are checked here, before
 * any run starts.
 */
import { parseModelName, type HarnessConfig } from '../harness/config';
import type { ModelClient } from '../harness/model/client';
import { AnthropicModelClient } from './anthropic-client';
import { BedrockModelClient } from './bedrock-client';
import { requireCredentials, type Env } from './credentials';
import { OpenAIModelClient } from './openai-client';
import { ResilientModelClient, type ResilienceOptions } from './resilience';

export interface LiveModelOptions {
  env?: Env;
  resilience?: Partial<ResilienceOptions>;
}

/** Builds a client for one run; `caseId` travels as request metadata where the API allows it. */
export type LiveModelFactory = (caseId: string | null) => ModelClient;

function providerClient(config: Pick<HarnessConfig, 'model' | 'modelBaseUrl'>, env: Env, caseId: string | null, timeoutMs: number | undefined): ModelClient {
  const name = parseModelName(config.model);
  if (!name) throw new Error('the fake model has no provider client');
  const baseURL = config.modelBaseUrl ?? undefined;
  switch (name.provider) {
    case 'openai':
      return new OpenAIModelClient({ provider: 'openai', model: name.model, apiKey: env.OPENAI_API_KEY!, baseURL, timeoutMs });
    case 'openai-compatible':
      return new OpenAIModelClient({
        provider: 'openai-compatible',
        model: name.model,
        // The SDK insists on a key; local servers ignore it.
        apiKey: env.OPENAI_COMPATIBLE_API_KEY?.trim() || 'not-needed',
        baseURL,
        timeoutMs,
        metadata: caseId ? { stockroom_case_id: caseId } : undefined,
      });
    case 'anthropic':
      return new AnthropicModelClient({ model: name.model, apiKey: env.ANTHROPIC_API_KEY!, baseURL, timeoutMs });
    case 'bedrock':
      return new BedrockModelClient({
        model: name.model,
        region: (env.AWS_REGION || env.AWS_DEFAULT_REGION)!,
        endpoint: baseURL,
        timeoutMs,
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
export function liveModelFactory(config: Pick<HarnessConfig, 'model' | 'modelBaseUrl'>, options: LiveModelOptions = {}): LiveModelFactory | null {
  const name = parseModelName(config.model);
  if (!name) return null;
  const env = options.env ?? process.env;
  requireCredentials(name.provider, env);
  return (caseId) => new ResilientModelClient(providerClient(config, env, caseId, options.resilience?.timeoutMs), options.resilience);
}

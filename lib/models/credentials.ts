/**
 * Which credentials each provider needs, read from the environment. A provider asked for without
 * them is refused before anything runs, naming the variable. Only presence is ever reported: no
 * value leaves this module except into the provider's own client.
 */
import { ConfigError } from '../harness/errors';
import type { ModelProvider } from '../harness/config';

export type Env = Record<string, string | undefined>;

const set = (env: Env, name: string) => (env[name] ?? '').trim() !== '';

/** AWS's standard chain: static keys, a profile, web identity, or a container role. */
const AWS_SOURCES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_PROFILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
];

/** The first variable a provider is missing, or null when it can be called. */
export function missingCredential(provider: ModelProvider, env: Env): string | null {
  switch (provider) {
    case 'openai':
      return set(env, 'OPENAI_API_KEY') ? null : 'OPENAI_API_KEY';
    case 'anthropic':
      return set(env, 'ANTHROPIC_API_KEY') ? null : 'ANTHROPIC_API_KEY';
    case 'openai-compatible':
      return null; // OPENAI_COMPATIBLE_API_KEY is optional: local servers rarely want one
    case 'bedrock':
      if (!set(env, 'AWS_REGION') && !set(env, 'AWS_DEFAULT_REGION')) return 'AWS_REGION';
      if (!AWS_SOURCES.some((v) => set(env, v))) return 'AWS_ACCESS_KEY_ID';
      if (set(env, 'AWS_ACCESS_KEY_ID') && !set(env, 'AWS_SECRET_ACCESS_KEY') && !set(env, 'AWS_PROFILE')) return 'AWS_SECRET_ACCESS_KEY';
      return null;
  }
}

/** Throws a ConfigError naming the missing variable. */
export function requireCredentials(provider: ModelProvider, env: Env): void {
  const missing = missingCredential(provider, env);
  if (missing) throw new ConfigError(missing, `${provider} models need ${missing} in the environment; it is not set`);
}

/** The providers this process holds credentials for (the dashboard's model picker lists only these). */
export function availableProviders(env: Env): ModelProvider[] {
  return (['bedrock', 'openai', 'openai-compatible', 'anthropic'] as const).filter((p) => missingCredential(p, env) === null);
}

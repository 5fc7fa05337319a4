/**
 * Which credentials each provider needs, read from the environment. A provider asked for without
 * them is refused before anything runs, naming the variable. Only presence is ever reported: no
 * value leaves this module except into the provider's own client.
 */
import { ConfigError } from '../harness';
import type { ModelProvider } from '../harness';
import { awsCredentialSource, awsRegion, readText, type Env, type ReadText } from './aws-chain';

export type { Env } from './aws-chain';

const set = (env: Env, name: string) => (env[name] ?? '').trim() !== '';

/**
 * The first variable a provider is missing, or null when it can be called. Bedrock accepts whatever
 * the AWS SDK's default chain would use (aws-chain.ts): keys, a profile in the shared files, web
 * identity, a container or an EC2 instance role.
 */
export function missingCredential(provider: ModelProvider, env: Env, read: ReadText = readText): string | null {
  switch (provider) {
    case 'openai':
      return set(env, 'OPENAI_API_KEY') ? null : 'OPENAI_API_KEY';
    case 'anthropic':
      return set(env, 'ANTHROPIC_API_KEY') ? null : 'ANTHROPIC_API_KEY';
    case 'openai-compatible':
      return null; // OPENAI_COMPATIBLE_API_KEY is optional: local servers rarely want one
    case 'bedrock':
      if (awsRegion(env, read) === null) return 'AWS_REGION';
      if (awsCredentialSource(env, read) === null) return 'AWS_ACCESS_KEY_ID';
      if (set(env, 'AWS_ACCESS_KEY_ID') && !set(env, 'AWS_SECRET_ACCESS_KEY') && !set(env, 'AWS_PROFILE')) return 'AWS_SECRET_ACCESS_KEY';
      return null;
  }
}

/** Throws a ConfigError naming the missing variable. */
export function requireCredentials(provider: ModelProvider, env: Env, read: ReadText = readText): void {
  const missing = missingCredential(provider, env, read);
  if (!missing) return;
  if (provider === 'bedrock') {
    throw new ConfigError(
      missing,
      missing === 'AWS_REGION'
        ? 'bedrock models need a region: AWS_REGION (or AWS_DEFAULT_REGION), or `region` in the AWS profile in use; none is set'
        : 'bedrock models need AWS credentials: AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY, AWS_PROFILE or a profile in ~/.aws/credentials or ~/.aws/config, web identity, a container role or an EC2 instance role; none was found',
    );
  }
  throw new ConfigError(missing, `${provider} models need ${missing} in the environment; it is not set`);
}

/** The providers this process holds credentials for (the dashboard's model picker lists only these). */
export function availableProviders(env: Env): ModelProvider[] {
  return (['bedrock', 'openai', 'openai-compatible', 'anthropic'] as const).filter((p) => missingCredential(p, env) === null);
}

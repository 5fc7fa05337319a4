/**
 * The judge `--judge` names: `fake` (the deterministic FakeJudge, rubric v2) or `PROVIDER:MODEL`, a
 * ModelJudge over the same provider clients and resilience layer as the agent's live models.
 * Credentials are checked here, before anything runs, naming the missing variable.
 */
import { z } from 'zod';
import { ConfigError } from '../harness';
import { FAKE_MODEL, MODEL_PROVIDERS, parseModelName } from '../harness';
import { FakeJudge, type Judge } from '../eval';
import { ModelJudge, type JudgeCallStore } from './model-judge';
import { providerClient } from './create-model-client';
import { requireCredentials, type Env } from './credentials';
import { costMeterFor } from './prices';
import { ResilientModelClient, type ResilienceOptions } from './resilience';

export interface JudgeSpec {
  /** `fake` or `provider:model`. */
  judge: string;
  /** Endpoint for an openai-compatible judge (required) or to override a provider's. */
  baseUrl?: string | null;
}

export interface CreateJudgeOptions {
  env?: Env;
  /** Where judge calls are recorded and looked up (the cache); memory for this process by default. */
  store?: JudgeCallStore;
  resilience?: Partial<ResilienceOptions>;
}

const BaseUrl = z.url({ protocol: /^https?$/ });

/** Validates a judge spec; throws ConfigError naming `field` (the flag or variable the value came from). */
export function checkJudgeSpec(spec: JudgeSpec, field = '--judge'): void {
  const value = spec.judge.trim();
  if (value === FAKE_MODEL) return;
  let name;
  try {
    name = parseModelName(value);
  } catch {
    throw new ConfigError(field, `${field} must be 'fake' or one of ${MODEL_PROVIDERS.map((p) => `${p}:<model>`).join(', ')}; got '${spec.judge}'`);
  }
  if (spec.baseUrl != null && !BaseUrl.safeParse(spec.baseUrl).success) {
    throw new ConfigError(`${field}-base-url`, `${field}-base-url must be an http(s) URL; got '${spec.baseUrl}'`);
  }
  if (name?.provider === 'openai-compatible' && spec.baseUrl == null) {
    throw new ConfigError(`${field}-base-url`, `an openai-compatible judge needs ${field}-base-url (the server's /v1 URL)`);
  }
}

/** Checks the spec and the judge provider's credentials (ConfigError naming what is missing). */
export function checkJudge(spec: JudgeSpec, env: Env = process.env, field = '--judge'): void {
  checkJudgeSpec(spec, field);
  const name = parseModelName(spec.judge);
  if (name) requireCredentials(name.provider, env);
}

/** Builds the judge; refuses (ConfigError) a malformed spec or missing credentials before anything runs. */
export function createJudge(spec: JudgeSpec, options: CreateJudgeOptions = {}): Judge {
  const env = options.env ?? process.env;
  checkJudge(spec, env);
  const name = parseModelName(spec.judge);
  if (!name) return new FakeJudge('v2');
  const config = { model: spec.judge.trim(), modelBaseUrl: spec.baseUrl ?? null };
  const client = providerClient(config, env, { caseId: null, weaknesses: [] });
  return new ModelJudge(new ResilientModelClient(client, options.resilience), options.store, costMeterFor({ model: config.model, usdBudget: null }));
}

'use client';
/**
 * The model a run uses: `fake` (the default) or one of the providers the server holds credentials for,
 * with a model name. Only the name goes to the server; keys and the openai-compatible endpoint are the
 * server's own, so this picker never sees them.
 */
import { FAKE_MODEL, NOISY_FAKE_MODEL, type ModelProvider } from '@/lib/harness/names';

/** Splits a picked value into provider and model name (`fake` has no name). */
export function splitModel(value: string): { provider: string; name: string } {
  const colon = value.indexOf(':');
  return colon === -1 ? { provider: value, name: '' } : { provider: value.slice(0, colon), name: value.slice(colon + 1) };
}

/** A suggestion per provider, so the picker is usable without knowing ids by heart. */
const PLACEHOLDER: Record<ModelProvider, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku-latest',
  bedrock: 'anthropic.claude-3-haiku-20240307-v1:0',
  'openai-compatible': 'stockroom-fake',
};

export function ModelPicker({
  value,
  onChange,
  providers,
  idPrefix = 'model',
  error,
  label = 'Model',
  fakeLabel = 'fake (deterministic)',
  noisy = false,
}: {
  value: string;
  onChange: (model: string) => void;
  /** Providers the server can call (besides fake). */
  providers: readonly ModelProvider[];
  idPrefix?: string;
  error?: readonly string[];
  /** What is being picked (the Judge page picks a judge). */
  label?: string;
  fakeLabel?: string;
  /** Also offer the seeded noisy fake model (suites and the matrix: variance offline, the same for the same seed). */
  noisy?: boolean;
}) {
  const { provider, name } = splitModel(value);
  const live = provider !== FAKE_MODEL && provider !== NOISY_FAKE_MODEL;
  return (
    <div className="row" style={{ alignItems: 'flex-end' }}>
      <div className="field">
        <label htmlFor={`${idPrefix}-provider`}>{label}</label>
        <select
          id={`${idPrefix}-provider`}
          data-testid="model-provider"
          value={provider}
          onChange={(e) => onChange(e.target.value === FAKE_MODEL || e.target.value === NOISY_FAKE_MODEL ? e.target.value : `${e.target.value}:${name || PLACEHOLDER[e.target.value as ModelProvider]}`)}
        >
          <option value={FAKE_MODEL}>{fakeLabel}</option>
          {noisy ? <option value={NOISY_FAKE_MODEL}>{NOISY_FAKE_MODEL} (seeded noise, offline)</option> : null}
          {providers.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      {live ? (
        <div className="field">
          <label htmlFor={`${idPrefix}-name`}>Model name</label>
          <input
            id={`${idPrefix}-name`}
            data-testid="model-name"
            value={name}
            maxLength={128}
            placeholder={PLACEHOLDER[provider as ModelProvider]}
            onChange={(e) => onChange(`${provider}:${e.target.value.trim()}`)}
          />
        </div>
      ) : null}
      {providers.length === 0 ? <span className="muted small">Live models appear here once the server holds a provider’s credentials.</span> : null}
      {error?.map((m) => (
        <span key={m} className="field-error" role="alert">
          {m}
        </span>
      ))}
    </div>
  );
}

'use client';
/**
 * How many times each case runs (epochs, issue 35) and, for the noisy fake model, its seed: the two
 * fields a suite or matrix form adds beside the model picker. Values stay text until sent, so the
 * server's check names a bad one (`epochs`, `seed`).
 */
import { NOISY_FAKE_MODEL } from '@/lib/harness/config';

export interface EpochsValue {
  epochs: string;
  seed: string;
}

export const DEFAULT_EPOCHS: EpochsValue = { epochs: '1', seed: '' };

/** What the action is sent: the epochs, and the seed only for the noisy fake model. */
export function epochsInput(value: EpochsValue, model: string | undefined): { epochs: string; seed?: string } {
  return { epochs: value.epochs, ...(model === NOISY_FAKE_MODEL && value.seed.trim() !== '' ? { seed: value.seed } : {}) };
}

export function EpochsFields({
  value,
  onChange,
  model,
  idPrefix,
  fieldErrors,
}: {
  value: EpochsValue;
  onChange: (v: EpochsValue) => void;
  model: string | undefined;
  idPrefix: string;
  fieldErrors?: Record<string, string[]>;
}) {
  const epochsError = fieldErrors?.epochs;
  const seedError = fieldErrors?.seed;
  return (
    <div className="row" style={{ alignItems: 'flex-end' }}>
      <div className="field">
        <label htmlFor={`${idPrefix}-epochs`}>Epochs (runs per case)</label>
        <input
          id={`${idPrefix}-epochs`}
          data-testid="epochs"
          inputMode="numeric"
          value={value.epochs}
          size={4}
          aria-invalid={epochsError ? true : undefined}
          aria-describedby={epochsError ? `${idPrefix}-epochs-error` : undefined}
          onChange={(e) => onChange({ ...value, epochs: e.target.value })}
        />
        {epochsError ? (
          <span id={`${idPrefix}-epochs-error`} className="field-error" role="alert">
            epochs: {epochsError.join(' ')}
          </span>
        ) : null}
      </div>
      {model === NOISY_FAKE_MODEL ? (
        <div className="field">
          <label htmlFor={`${idPrefix}-seed`}>Seed</label>
          <input
            id={`${idPrefix}-seed`}
            data-testid="seed"
            inputMode="numeric"
            value={value.seed}
            size={8}
            placeholder="0"
            aria-invalid={seedError ? true : undefined}
            aria-describedby={seedError ? `${idPrefix}-seed-error` : undefined}
            onChange={(e) => onChange({ ...value, seed: e.target.value })}
          />
          {seedError ? (
            <span id={`${idPrefix}-seed-error`} className="field-error" role="alert">
              seed: {seedError.join(' ')}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

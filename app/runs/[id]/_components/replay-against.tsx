'use client';
/**
 * "Replay against…": re-run this stored live run under other flags, guards or wrappers from its
 * recorded model responses, then open compare with both runs (the divergence step highlighted).
 * With a live model chosen, the replay continues live from the first request that differs.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { replayRunAction } from '@/lib/actions/replay-run';
import { FAKE_MODEL, PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, WEAKNESS_FLAGS, type ModelProvider, type PayloadWrapperName, type RunGuardName, type WeaknessFlag } from '@/lib/harness/names';
import { ModelPicker } from '@/components/model-picker';

const toggle = <T extends string>(list: T[], item: T): T[] => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item].sort());

export function ReplayAgainst({
  runId,
  initial,
  modelProviders,
}: {
  runId: string;
  /** The stored run's own settings, as the starting point. */
  initial: { weaknesses: WeaknessFlag[]; guards: RunGuardName[]; payloadWrappers: PayloadWrapperName[] };
  modelProviders: readonly ModelProvider[];
}) {
  const router = useRouter();
  const [weaknesses, setWeaknesses] = useState(initial.weaknesses);
  const [guards, setGuards] = useState(initial.guards);
  const [payloadWrappers, setWrappers] = useState(initial.payloadWrappers);
  const [model, setModel] = useState<string>(FAKE_MODEL);
  const [error, setError] = useState<{ error: string; fieldErrors?: Record<string, string[]> } | null>(null);
  const [pending, start] = useTransition();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    start(async () => {
      const res = await replayRunAction({ runId, weaknesses, guards, payloadWrappers, model });
      if (res.ok) router.push(`/compare?a=${res.data.replayedFrom}&b=${res.data.runId}`);
      else setError(res);
    });
  };

  return (
    <details className="panel" data-testid="replay-against">
      <summary>
        <strong>Replay against…</strong> <span className="muted small">other settings, from this run’s recorded model responses</span>
      </summary>
      <form onSubmit={submit} className="stack" style={{ marginTop: '0.75rem' }} aria-label="Replay against other settings">
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <fieldset>
            <legend>Weakness flags</legend>
            {WEAKNESS_FLAGS.map((f) => (
              <label key={f} className="check">
                <input type="checkbox" name="replay-weakness" value={f} checked={weaknesses.includes(f)} onChange={() => setWeaknesses(toggle(weaknesses, f))} />
                {f}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Guards and wrappers</legend>
            {RUN_GUARD_NAMES.map((g) => (
              <label key={g} className="check">
                <input type="checkbox" name="replay-guard" value={g} checked={guards.includes(g)} onChange={() => setGuards(toggle(guards, g))} />
                {g}
              </label>
            ))}
            {PAYLOAD_WRAPPER_NAMES.map((w) => (
              <label key={w} className="check">
                <input type="checkbox" name="replay-wrapper" value={w} checked={payloadWrappers.includes(w)} onChange={() => setWrappers(toggle(payloadWrappers, w))} />
                {w}
              </label>
            ))}
          </fieldset>
        </div>
        <div>
          <p className="muted small" style={{ margin: 0 }}>
            At the first request that differs from the recording: with the fake model the replay stops as DIVERGED; with a live model it continues live.
          </p>
          <ModelPicker value={model} onChange={setModel} providers={modelProviders} idPrefix="replay-model" error={error?.fieldErrors?.model} />
        </div>
        {error ? (
          <div className="alert error" role="alert">
            {error.error}
          </div>
        ) : null}
        <div>
          <button type="submit" className="primary" disabled={pending} data-testid="replay-against-submit">
            {pending ? 'Replaying…' : 'Replay and compare'}
          </button>
        </div>
      </form>
    </details>
  );
}

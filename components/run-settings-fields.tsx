'use client';
/** Dataset, weakness flags, run guard, payload wrapper and transport pickers (a controlled group). */
import {
  PAYLOAD_WRAPPER_NAMES,
  RUN_GUARD_NAMES,
  TRANSPORTS,
  WEAKNESS_FLAGS,
  type PayloadWrapperName,
  type RunGuardName,
  type Transport,
  type WeaknessFlag,
  type ModelProvider,
} from '@/lib/harness/config';
import type { DatasetOption } from '@/lib/runs/datasets';
import { ModelPicker } from './model-picker';

export interface SettingsValue {
  datasetId: string;
  weaknesses: WeaknessFlag[];
  guards: RunGuardName[];
  payloadWrappers: PayloadWrapperName[];
  transport: Transport;
  /** A configured tool server's id (the server decides the transport); empty for the Stockroom tools. */
  toolServer?: string;
  /** `fake` (default) or `<provider>:<model>`; only the name is sent, never a key or URL. */
  model?: string;
  /** Agent guardrails as JSON text (docs/reference/guardrails.md); empty: the tenant's default, if any. */
  guardrails?: string;
}

/** What the guardrails field offers as a start (the same keys the CLI's --guardrails takes). */
export const GUARDRAILS_EXAMPLE = '{"require_tools": ["get_stock_level"], "detectors": {"no_pii": {"redact": true}}, "on_violation": "retry"}';

/** A configured tool server as the form shows it: an id and a title, never its command or URL. */
export interface ToolServerOption {
  id: string;
  title: string;
}

export const DEFAULT_SETTINGS: SettingsValue = { datasetId: 'bundled', weaknesses: [], guards: [], payloadWrappers: [], transport: 'local' };

const toggle = <T extends string>(list: T[], item: T): T[] => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item].sort());

export function RunSettingsFields({
  value,
  onChange,
  datasets,
  showWeaknesses = true,
  fieldErrors,
  toolServers = [],
  modelProviders,
  noisyModel = false,
}: {
  value: SettingsValue;
  onChange: (v: SettingsValue) => void;
  datasets: DatasetOption[];
  showWeaknesses?: boolean;
  fieldErrors?: Record<string, string[]>;
  /** Configured tool servers to offer; none: the picker is not shown. */
  toolServers?: ToolServerOption[];
  /** Providers the server holds credentials for; undefined: no model picker (the fake model). */
  modelProviders?: readonly ModelProvider[];
  /** Offer the seeded noisy fake model (suites and the matrix). */
  noisyModel?: boolean;
}) {
  return (
    <div className="row" style={{ alignItems: 'flex-start' }}>
      {modelProviders ? (
        <ModelPicker value={value.model ?? 'fake'} onChange={(model) => onChange({ ...value, model })} providers={modelProviders} error={fieldErrors?.model} noisy={noisyModel} />
      ) : null}
      <div className="field">
        <label htmlFor="dataset">Dataset</label>
        <select id="dataset" value={value.datasetId} onChange={(e) => onChange({ ...value, datasetId: e.target.value })}>
          {datasets.map((d) => (
            <option key={d.id} value={d.id} disabled={d.problem !== null}>
              {d.name}
              {d.problem ? ' (unavailable)' : ` (${d.cases.length} cases)`}
            </option>
          ))}
        </select>
        {fieldErrors?.datasetId?.map((m) => (
          <span key={m} className="field-error">
            {m}
          </span>
        ))}
      </div>
      {showWeaknesses ? (
        <fieldset>
          <legend>Weakness flags</legend>
          {WEAKNESS_FLAGS.map((f) => (
            <label key={f} className="check">
              <input type="checkbox" name="weakness" value={f} checked={value.weaknesses.includes(f)} onChange={() => onChange({ ...value, weaknesses: toggle(value.weaknesses, f) })} />
              {f}
            </label>
          ))}
        </fieldset>
      ) : null}
      <fieldset>
        <legend>Guards and wrappers</legend>
        {RUN_GUARD_NAMES.map((g) => (
          <label key={g} className="check">
            <input type="checkbox" name="guard" value={g} checked={value.guards.includes(g)} onChange={() => onChange({ ...value, guards: toggle(value.guards, g) })} />
            {g}
          </label>
        ))}
        {PAYLOAD_WRAPPER_NAMES.map((w) => (
          <label key={w} className="check">
            <input
              type="checkbox"
              name="wrapper"
              value={w}
              checked={value.payloadWrappers.includes(w)}
              onChange={() => onChange({ ...value, payloadWrappers: toggle(value.payloadWrappers, w) })}
            />
            {w}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="transport">Tool transport</label>
        <select id="transport" value={value.transport} onChange={(e) => onChange({ ...value, transport: e.target.value as Transport })}>
          {TRANSPORTS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <details className="field" open={Boolean(value.guardrails) || Boolean(fieldErrors?.guardrails)}>
        <summary>Guardrails</summary>
        <label htmlFor="guardrails">Guardrails (JSON; empty: the tenant’s default)</label>
        <textarea
          id="guardrails"
          rows={3}
          cols={48}
          spellCheck={false}
          placeholder={GUARDRAILS_EXAMPLE}
          value={value.guardrails ?? ''}
          onChange={(e) => onChange({ ...value, guardrails: e.target.value })}
          aria-describedby="guardrails-help"
        />
        <span id="guardrails-help" className="small muted">
          forbid_tools, require_tools, must_include, require_citation, no_placeholders, detectors (no_pii, no_secrets, no_injection), llm_guard, on_violation
        </span>
        {fieldErrors?.guardrails?.map((m) => (
          <span key={m} className="field-error">
            {m}
          </span>
        ))}
      </details>
      {toolServers.length > 0 ? (
        <div className="field">
          <label htmlFor="tool-server">Tool server</label>
          <select id="tool-server" value={value.toolServer ?? ''} onChange={(e) => onChange({ ...value, toolServer: e.target.value || undefined })}>
            <option value="">Stockroom tools (transport above)</option>
            {toolServers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
          {fieldErrors?.toolServer?.map((m) => (
            <span key={m} className="field-error">
              {m}
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

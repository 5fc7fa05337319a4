/**
 * A run's settings as the dashboard and the CLI name them, turned into the harness configuration:
 * the setting label of a set of weakness flags, the configuration of UI settings (a live model's
 * credentials checked), and the tool server a run may name.
 */
import fs from 'node:fs';
import { FAKE_MODEL, isOfflineModel, resolveConfig, type HarnessConfig, type WeaknessFlag } from '../harness';
import { guardrailsOn, type Guardrails } from '../harness';
import { policyFilePath } from '../governance';
import { loadPolicyFile, tenantGuardrails } from '../governance';
import type { ModelChoice, RunSettings } from '../schemas/run-settings';
import { InputError } from './errors';
import { modelSettings } from './model-choice';
import { configuredToolServer } from './tool-servers';

/** `none`, or the sorted flags joined with `+` (the data layer's setting label). */
export function settingLabel(weaknesses: readonly string[]): string {
  return weaknesses.length === 0 ? 'none' : [...weaknesses].sort().join('+');
}

/**
 * The guardrails a run of `tenant` runs under: its own when it names any, else the tenant's default
 * from the policy file (none when the file names none or does not exist; a policy file that exists
 * but does not parse is refused, never read as "no default").
 */
export function guardrailsFor(own: Guardrails | undefined, tenant: string | undefined): Guardrails | undefined {
  if (own !== undefined || tenant === undefined) return own;
  const file = policyFilePath();
  if (!fs.existsSync(file)) return undefined;
  return tenantGuardrails(loadPolicyFile(file).document, tenant);
}

/**
 * The resolved harness configuration of UI settings under `weaknesses`. A live model is refused here,
 * naming the variable, when the server lacks its credentials (model-choice.ts). `tenant`: whose
 * default guardrails apply when the settings name none.
 */
export function configOf(
  settings: Pick<RunSettings, 'guards' | 'payloadWrappers' | 'transport'> & { model?: ModelChoice; guardrails?: Guardrails; seed?: number },
  weaknesses: readonly WeaknessFlag[],
  tenant?: string,
): HarnessConfig {
  const guardrails = guardrailsFor(settings.guardrails, tenant);
  const model = modelSettings(settings.model ?? FAKE_MODEL);
  return resolveConfig({
    weaknesses: [...weaknesses],
    guards: settings.guards,
    payloadWrappers: settings.payloadWrappers,
    transport: settings.transport,
    ...model,
    // The dashboard's live runs stream (time to first token measured; the live run page shows the answer as it comes).
    ...(isOfflineModel(model.model) ? {} : { stream: true }),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    // Guardrails with nothing switched on are none (and, named by the run, keep the tenant default off).
    ...(guardrails && guardrailsOn(guardrails).length > 0 ? { guardrails } : {}),
  });
}

/**
 * A configured tool server's connection options for a run of `tenant` (whose stored OAuth token it
 * uses); InputError on `toolServer` for an id the deployment does not list.
 */
export function toolServerOptions(id: string, tenant?: string): NonNullable<ReturnType<typeof configuredToolServer>> {
  const server = configuredToolServer(id, tenant);
  if (!server) throw new InputError('toolServer', `Unknown tool server '${id}'.`);
  return server;
}

/**
 * The configuration of settings that may name a tool server: the server (when named) decides the
 * transport. Returns the server too, so the run connects to it.
 */
export function configWithServer(
  settings: Pick<RunSettings, 'guards' | 'payloadWrappers' | 'transport' | 'toolServer'> & { model?: ModelChoice; guardrails?: Guardrails; seed?: number },
  weaknesses: readonly WeaknessFlag[],
  tenant?: string,
): { config: HarnessConfig; server: ReturnType<typeof toolServerOptions> | undefined } {
  const server = settings.toolServer !== undefined ? toolServerOptions(settings.toolServer, tenant) : undefined;
  return { config: configOf(server ? { ...settings, transport: server.transport } : settings, weaknesses, tenant), server };
}

/** Governed runs use the Stockroom tools: a tool server asked for there is refused, not ignored. */
export function refuseToolServer(toolServer: string | undefined): void {
  if (toolServer !== undefined) {
    throw new InputError('toolServer', 'A tool server can be chosen for ungoverned runs, suites and matrices only; governed runs use the Stockroom tools.');
  }
}

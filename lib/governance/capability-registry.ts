/**
 * The capability registry: each tool's version and schema digest, pinned when a run starts (for
 * local and MCP tools alike, from whatever the executor lists). A tool whose schema changed after
 * the pin is refused as drift; a tool that appeared after the pin is refused as unpinned.
 */
import { z } from 'zod';
import type { ToolSpec } from '../harness/types';
import { canonicalDigest } from './canonical-json';
import type { LoadedPolicy } from './policy-file';

/** Version recorded for a tool the policy does not list (it will be denied anyway). */
export const UNLISTED_TOOL_VERSION = 'unlisted';

/** SHA-256 of the canonical JSON of what the model is shown: name, description and input schema. */
export function schemaDigest(spec: Pick<ToolSpec, 'name' | 'description' | 'inputSchema'>): string {
  return canonicalDigest({ name: spec.name, description: spec.description, inputSchema: spec.inputSchema });
}

export const PinnedToolSchema = z.object({ name: z.string(), version: z.string(), schemaDigest: z.string() });
export type PinnedTool = z.infer<typeof PinnedToolSchema>;

/** A serialisable pin (stored with a paused run so a resumed run compares against the same pin). */
export const CapabilityPinSchema = z.object({ pinnedAt: z.string(), tools: z.array(PinnedToolSchema) });
export type CapabilityPin = z.infer<typeof CapabilityPinSchema>;

export type DriftCheck =
  | { ok: true; pinned: PinnedTool }
  | { ok: false; reason: 'unpinned'; current: string }
  | { ok: false; reason: 'drift'; pinned: PinnedTool; current: string };

/** Pins every listed tool now. */
export function pinCapabilities(specs: readonly ToolSpec[], policy: LoadedPolicy, at: string): CapabilityPin {
  return {
    pinnedAt: at,
    tools: specs.map((s) => ({
      name: s.name,
      version: policy.document.tools[s.name]?.version ?? UNLISTED_TOOL_VERSION,
      schemaDigest: schemaDigest(s),
    })),
  };
}

/** Looks a tool up in a pin. */
export function pinnedTool(pin: CapabilityPin, name: string): PinnedTool | undefined {
  return pin.tools.find((t) => t.name === name);
}

/** Compares a tool's current spec with its pin. */
export function checkDrift(pin: CapabilityPin, spec: ToolSpec): DriftCheck {
  const current = schemaDigest(spec);
  const pinned = pinnedTool(pin, spec.name);
  if (!pinned) return { ok: false, reason: 'unpinned', current };
  if (pinned.schemaDigest !== current) return { ok: false, reason: 'drift', pinned, current };
  return { ok: true, pinned };
}

/** The tools of a pin whose current spec differs (for the dashboard's drift column). */
export function driftedTools(pin: CapabilityPin, specs: readonly ToolSpec[]): { name: string; pinned: string; current: string }[] {
  const out: { name: string; pinned: string; current: string }[] = [];
  for (const spec of specs) {
    const check = checkDrift(pin, spec);
    if (!check.ok && check.reason === 'drift') out.push({ name: spec.name, pinned: check.pinned.schemaDigest, current: check.current });
  }
  return out;
}

/**
 * The capability registry: each tool's server, name, version and schema digest (and the server's
 * read-only/destructive hints), pinned when a run starts — for local and MCP tools alike, from
 * whatever the executor lists. A tool is identified by server and name together, so a same-named
 * tool of another server is not the pinned one. A tool whose schema changed after the pin is
 * refused as drift; a tool that appeared after the pin is refused as unpinned.
 */
import { z } from 'zod';
import type { ToolSpec } from '../harness';
import { canonicalDigest } from './canonical-json';
import { toolPolicyFor, type ToolHints } from './policy-engine';
import type { LoadedPolicy } from './policy-file';

/** Version recorded for a tool the policy does not list (it will be denied anyway). */
export const UNLISTED_TOOL_VERSION = 'unlisted';

/** SHA-256 of the canonical JSON of what the model is shown: name, description and input schema. */
export function schemaDigest(spec: Pick<ToolSpec, 'name' | 'description' | 'inputSchema'>): string {
  return canonicalDigest({ name: spec.name, description: spec.description, inputSchema: spec.inputSchema });
}

export const PinnedToolSchema = z.object({
  /** The tool server's id; absent in pins taken before servers were recorded (and for unnamed sources). */
  server: z.string().optional(),
  name: z.string(),
  version: z.string(),
  schemaDigest: z.string(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
});
export type PinnedTool = z.infer<typeof PinnedToolSchema>;

/** A serialisable pin (stored with a paused run so a resumed run compares against the same pin). */
export const CapabilityPinSchema = z.object({ pinnedAt: z.string(), tools: z.array(PinnedToolSchema) });
export type CapabilityPin = z.infer<typeof CapabilityPinSchema>;

export type DriftCheck =
  | { ok: true; pinned: PinnedTool }
  | { ok: false; reason: 'unpinned'; current: string }
  | { ok: false; reason: 'drift'; pinned: PinnedTool; current: string };

/** Where the specs came from: the server's id and its annotations per tool. */
export interface ToolSource {
  server?: string;
  hints?: ReadonlyMap<string, ToolHints>;
}

/** Pins every listed tool now. */
export function pinCapabilities(specs: readonly ToolSpec[], policy: LoadedPolicy, at: string, source: ToolSource = {}): CapabilityPin {
  return {
    pinnedAt: at,
    tools: specs.map((s) => {
      const hints = source.hints?.get(s.name);
      return {
        ...(source.server !== undefined ? { server: source.server } : {}),
        name: s.name,
        version: toolPolicyFor(policy, s.name, source.server)?.version ?? UNLISTED_TOOL_VERSION,
        schemaDigest: schemaDigest(s),
        ...(hints?.readOnlyHint !== undefined ? { readOnlyHint: hints.readOnlyHint } : {}),
        ...(hints?.destructiveHint !== undefined ? { destructiveHint: hints.destructiveHint } : {}),
      };
    }),
  };
}

/** Looks a tool up in a pin by server and name (a pin without servers matches by name). */
export function pinnedTool(pin: CapabilityPin, name: string, server?: string): PinnedTool | undefined {
  return pin.tools.find((t) => t.name === name && (t.server === undefined || t.server === server));
}

/** `name` or `name on server S`, for messages. */
export function toolLabel(name: string, server?: string): string {
  return server === undefined ? name : `${name} on server ${server}`;
}

/** Compares a tool's current spec (served by `server`) with its pin. */
export function checkDrift(pin: CapabilityPin, spec: ToolSpec, server?: string): DriftCheck {
  const current = schemaDigest(spec);
  const pinned = pinnedTool(pin, spec.name, server);
  if (!pinned) return { ok: false, reason: 'unpinned', current };
  if (pinned.schemaDigest !== current) return { ok: false, reason: 'drift', pinned, current };
  return { ok: true, pinned };
}

/** The tools of a pin whose current spec differs (for the dashboard's drift column). */
export function driftedTools(pin: CapabilityPin, specs: readonly ToolSpec[], server?: string): { name: string; pinned: string; current: string }[] {
  const out: { name: string; pinned: string; current: string }[] = [];
  for (const spec of specs) {
    const check = checkDrift(pin, spec, server);
    if (!check.ok && check.reason === 'drift') out.push({ name: spec.name, pinned: check.pinned.schemaDigest, current: check.current });
  }
  return out;
}

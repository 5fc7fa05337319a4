/**
 * The guardrails at a tool call: a forbidden tool is refused before it runs (a structured refusal
 * the model reads, named as a guardrail), and the detectors read each result before it enters the
 * context, redacting exactly the values found when asked to.
 */
import type { DetectorName, Guardrails } from '../guardrails/config';
import { findingRecord, redactText, scanText, type FindingRecord } from '../guardrails/detectors';
import type { JsonObject, JsonValue } from '../json';
import type { GuardrailEvent, ToolCallRequest, ToolRecord } from '../types';

export const REFUSED_BY_GUARDRAIL = 'refused_by_guardrail';

/** The refusal of a call to a forbidden tool, or null when the tool is allowed. */
export function refuseForbidden(
  g: Guardrails,
  call: ToolCallRequest,
  step: number,
  record: ToolRecord,
): { record: ToolRecord; guardrailEvents: GuardrailEvent[] } | null {
  if (!g.forbid_tools.includes(call.name)) return null;
  const message = `${call.name} is forbidden for this task by the run's guardrails; it was not called. Answer without it.`;
  const content: JsonObject = { error: REFUSED_BY_GUARDRAIL, guardrail: 'forbid_tools', tool: call.name, message };
  return {
    record: { ...record, resultContent: content, isError: true, errorCode: REFUSED_BY_GUARDRAIL, blockedBy: 'guardrail:forbid_tools' },
    guardrailEvents: [
      { kind: 'guardrail', step, guardrail: 'forbid_tools', action: 'refused', detail: `refused ${call.name} before it ran`, source: 'tool_call', toolUseId: call.toolUseId },
    ],
  };
}

/** The result with the detectors' findings (redacted where asked) and one event per detector that found something. */
export function scanToolOutput(g: Guardrails, content: JsonValue, step: number, toolUseId: string): { content: JsonValue; events: GuardrailEvent[] } {
  const detectors = (Object.keys(g.detectors) as DetectorName[]).filter((k) => g.detectors[k]);
  if (detectors.length === 0) return { content, events: [] };
  const found = new Map<DetectorName, FindingRecord[]>();
  const mask = (s: string) => redactText(s, scanText(s, detectors));
  const walk = (v: JsonValue): JsonValue => {
    if (typeof v === 'string') {
      const findings = scanText(v, detectors);
      if (findings.length === 0) return v;
      for (const f of findings) found.set(f.detector, [...(found.get(f.detector) ?? []), findingRecord(v, f, mask)]);
      const redactable = findings.filter((f) => g.detectors[f.detector]?.redact);
      return redactable.length > 0 ? redactText(v, redactable) : v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: JsonObject = {};
      for (const [k, val] of Object.entries(v)) out[k] = walk(val);
      return out;
    }
    return v;
  };
  const clean = walk(content);
  const events: GuardrailEvent[] = [];
  for (const [detector, findings] of found) {
    const redacted = g.detectors[detector]?.redact === true;
    const kinds = [...new Set(findings.map((f) => f.kind))].join(', ');
    events.push({
      kind: 'guardrail',
      step,
      guardrail: detector,
      action: 'finding',
      detail: `${findings.length} finding(s) in tool output: ${kinds}${redacted ? ' (redacted before the model saw it)' : ' (not redacted: the model saw it)'}`,
      source: 'tool_output',
      toolUseId,
      findings,
      redacted,
    });
  }
  return { content: clean, events };
}

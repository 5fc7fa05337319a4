/**
 * Instructor mode's guardrail switches: each one a small set of guardrails, the weakness it contains
 * and the metric on which a lesson shows both moving. Suggestions come from a stored matrix (the
 * cases where the weakness moved that metric), never from a list of case ids kept in code.
 */
import type { GuardrailsInput } from '../harness/guardrails';
import type { FlagSuggestion } from './flag-suggestions';
import { metricLabel } from './matrix-view';

export interface GuardrailSwitch {
  id: string;
  /** What the switch turns on, as the guardrails JSON says it. */
  label: string;
  help: string;
  guardrails: GuardrailsInput;
  /** The weakness whose effect this guardrail contains, and the metric on which both move. */
  contains: { flag: string; metric: string } | null;
}

export const GUARDRAIL_SWITCHES: readonly GuardrailSwitch[] = [
  {
    id: 'no_injection',
    label: 'no_injection',
    help: 'redacts instruction-like tool text',
    guardrails: { detectors: { no_injection: { redact: true } } },
    contains: { flag: 'injection_unguarded', metric: 'must_not_call_ok_rate' },
  },
  {
    id: 'forbid_restock',
    label: 'forbid_tools: create_restock_request',
    help: 'refuses restock writes before they run',
    guardrails: { forbid_tools: ['create_restock_request'] },
    contains: { flag: 'injection_unguarded', metric: 'must_not_call_ok_rate' },
  },
  {
    id: 'no_pii',
    label: 'no_pii',
    help: 'redacts e-mails, phones, cards, IBANs',
    guardrails: { detectors: { no_pii: { redact: true } } },
    contains: null,
  },
];

/** The guardrails of the switches that are on, merged into one configuration (`{}`: none). */
export function guardrailsOfSwitches(ids: readonly string[]): GuardrailsInput {
  const out: GuardrailsInput = {};
  for (const s of GUARDRAIL_SWITCHES.filter((x) => ids.includes(x.id))) {
    const g = s.guardrails;
    if (g.forbid_tools) out.forbid_tools = [...new Set([...(out.forbid_tools ?? []), ...g.forbid_tools])];
    if (g.detectors) out.detectors = { ...(out.detectors ?? {}), ...g.detectors };
  }
  return out;
}

export interface GuardrailSuggestion extends FlagSuggestion {
  /** The weakness to switch on beside the guardrail. */
  flag: string;
}

/**
 * For each switch that contains a weakness: the cases where that weakness moved the switch's metric
 * in the matrix (from the flag's suggestions), so the lesson runs the weakness, then weakness + guardrail.
 */
export function guardrailSuggestions(byFlag: Readonly<Record<string, readonly FlagSuggestion[]>>): Record<string, GuardrailSuggestion[]> {
  const out: Record<string, GuardrailSuggestion[]> = {};
  for (const s of GUARDRAIL_SWITCHES) {
    if (!s.contains) continue;
    const { flag, metric } = s.contains;
    out[s.id] = (byFlag[flag] ?? []).filter((c) => c.moved.includes(metricLabel(metric))).map((c) => ({ ...c, flag }));
  }
  return out;
}

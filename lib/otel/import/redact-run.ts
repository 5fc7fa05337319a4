/**
 * Secrets never reach a stored run, whoever sent the trace: an imported run's messages, tool
 * arguments and results, model text and kept span attributes pass through the same redaction the
 * export applies to content (lib/security/redact.ts). Attribute keys are dotted (`ai.request.headers.authorization`),
 * so a key is judged by its last segment.
 */
import type { JsonValue } from '../../harness';
import type { RunResult, TrajectoryStep } from '../../harness';
import { redactSecrets } from '../../security';

const text = (s: string) => redactSecrets(s) as string;
const textOrNull = (s: string | null) => (s === null ? null : text(s));

/** Span attributes with each dotted key judged by its last segment. */
export function redactAttributes(attributes: Record<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(attributes)) {
    const last = k.split('.').at(-1) ?? k;
    out[k] = (redactSecrets({ [last]: v }) as Record<string, JsonValue>)[last]!;
  }
  return out;
}

function redactStep(s: TrajectoryStep): TrajectoryStep {
  switch (s.kind) {
    case 'model_turn':
      return { ...s, text: textOrNull(s.text), toolCalls: s.toolCalls.map((c) => ({ ...c, arguments: redactSecrets(c.arguments) })) };
    case 'tool_call':
      return { ...s, arguments: redactSecrets(s.arguments), resultContent: redactSecrets(s.resultContent) };
    case 'span':
      return { ...s, attributes: redactAttributes(s.attributes) };
    default:
      return s;
  }
}

export function redactRun(run: RunResult): RunResult {
  return {
    ...run,
    query: text(run.query),
    finalAnswer: text(run.finalAnswer),
    systemPrompt: text(run.systemPrompt),
    trajectory: run.trajectory.map(redactStep),
    modelInputs: run.modelInputs.map((m) => ({ ...m, messages: m.messages.map(redactSecrets) })),
  };
}

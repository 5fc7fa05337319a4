/**
 * A RunResult with its tenant's redaction classes taken out (issue 33), before buildRunRows turns it
 * into rows (pure; the subject's key is resolved beforehand, redaction-store.ts). Content goes through
 * the redactor — the question and answer, model text and tool-call arguments, tool arguments (and the
 * call signature that holds them), results, quarantined text, guard details, guardrail events, span
 * steps, the messages each model call was given, recorded responses and the system prompt — and ids,
 * digests, names and numbers stay as they are. A paused run's checkpoint (its messages, the call it
 * waits on) is redacted too: a resume never reads it from here but from its governed run, which keeps
 * the real checkpoint sealed until the dispatch (governed-content.ts).
 */
import type { Redaction, Redactor } from '../../governance';
import type { RunResult } from '../../harness';

export function redactRun(run: RunResult, r: Redactor): { run: RunResult; redactions: Redaction[] } {
  const query = r.text(run.query, 'query');
  const trajectory = run.trajectory.map((s): RunResult['trajectory'][number] => {
    switch (s.kind) {
      case 'model_turn':
        return {
          ...s,
          text: s.text === null ? null : r.text(s.text, `model text at step ${s.step}`),
          toolCalls: s.toolCalls.map((c) => ({ ...c, arguments: r.json(c.arguments, `tool arguments at step ${s.step}`) })),
        };
      case 'tool_call':
        return {
          ...s,
          arguments: r.json(s.arguments, `tool arguments at step ${s.step}`),
          signature: r.text(s.signature, `tool arguments at step ${s.step}`),
          resultContent: r.json(s.resultContent, `tool result at step ${s.step}`),
          quarantinedText: s.quarantinedText.map((t) => r.text(t, `tool result at step ${s.step}`)),
          validationError: s.validationError === null ? null : r.text(s.validationError, `tool arguments at step ${s.step}`),
          ...(s.media ? { media: r.json(s.media, `tool result at step ${s.step}`) } : {}),
          ...(s.taint ? { taint: { ...s.taint, excerpt: r.text(s.taint.excerpt, `tool result at step ${s.step}`) } } : {}),
        };
      case 'guard':
        return { ...s, detail: r.text(s.detail, `guard at step ${s.step}`) };
      case 'guardrail':
        return {
          ...s,
          detail: r.text(s.detail, `guardrail at step ${s.step}`),
          ...(s.message !== undefined ? { message: r.text(s.message, `guardrail at step ${s.step}`) } : {}),
          ...(s.findings ? { findings: s.findings.map((f) => ({ ...f, before: r.text(f.before, `guardrail at step ${s.step}`), after: r.text(f.after, `guardrail at step ${s.step}`) })) } : {}),
          ...(s.verdict ? { verdict: { ...s.verdict, reason: r.text(s.verdict.reason, `guardrail at step ${s.step}`) } } : {}),
        };
      case 'span': {
        const where = `span at step ${s.step}`;
        return {
          ...s,
          attributes: r.json(s.attributes, where),
          ...(s.input !== undefined ? { input: r.text(s.input, where) } : {}),
          ...(s.output !== undefined ? { output: r.text(s.output, where) } : {}),
          ...(s.documents ? { documents: r.json(s.documents, where) } : {}),
          ...(s.inputDocuments ? { inputDocuments: r.json(s.inputDocuments, where) } : {}),
        };
      }
      default:
        return s;
    }
  });
  const finalAnswer = r.text(run.finalAnswer, 'answer');
  const out: RunResult = {
    ...run,
    query,
    finalAnswer,
    trajectory,
    systemPrompt: r.text(run.systemPrompt, 'system prompt'),
    checkpoint: run.checkpoint ? r.json(run.checkpoint, 'checkpoint') : run.checkpoint,
    modelInputs: run.modelInputs.map((m) => ({ ...m, messages: r.json(m.messages, `model input at step ${m.step}`) })),
    ...(run.exchanges ? { exchanges: run.exchanges.map((e) => ({ ...e, response: r.json(e.response, `model response at step ${e.step}`), ...(e.raw !== undefined ? { raw: r.json(e.raw, `model response at step ${e.step}`) } : {}) })) } : {}),
  };
  return { run: out, redactions: r.redactions() };
}

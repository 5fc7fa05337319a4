/**
 * The CALL_MODEL state's work: the model is asked with the messages it may see, and its answer is
 * recorded as a model turn (usage, retries, exchange); a failure ends the run as MODEL_ERROR with
 * its kind, or DIVERGED when a replay left its recording.
 */
import { ModelCallError } from '../errors';
import { partialNote } from '../model/partial';
import type { ModelResponse, ModelRetryEvent } from '../types';
import { assistantMessage, stripPrivateKeys } from './messages';
import type { Driver } from './options';
import { recordExchange, stopIfDiverged } from './recording';
import type { RunState } from './run-state';
import { callTime, instant, type Instant } from './timing';
import { addCallUsage, estimateFor, reported } from './usage';

/** Calls the model; null when the run stopped instead (the reason is on the run). */
export async function callModel(d: Driver, run: RunState, contextTokens: number): Promise<ModelResponse | null> {
  const { config, model, systemPrompt } = d.options;
  const signal = d.deadline.signal;
  const visible = stripPrivateKeys(run.messages);
  run.modelInputs.push({ step: run.step, messages: visible });
  let response: ModelResponse;
  const started = instant(d.timeline);
  // A retry's wait is timed from the notice (the client is about to wait) to the client's word that it is over.
  const waits = new Map<number, { event: ModelRetryEvent; from: Instant }>();
  // The answer so far, for a caller watching a streamed call (onModelText); a retry starts it again.
  const onModelText = d.options.onModelText;
  let soFar = '';
  try {
    if (signal.aborted) throw new ModelCallError('cancelled', 'the run was cancelled');
    response = await model.converse({
      system: systemPrompt,
      messages: visible,
      tools: d.specList,
      maxTokens: config.maxTokens,
      signal,
      onRetry: (r) => {
        soFar = '';
        const event: ModelRetryEvent = { kind: 'model_retry', step: run.step, ...r };
        waits.set(r.attempt, { event, from: instant(d.timeline) });
        run.trajectory.push(event);
      },
      onRetryWaited: (attempt) => {
        const wait = waits.get(attempt);
        if (wait) wait.event.time = callTime(wait.from, instant(d.timeline));
      },
      ...(onModelText
        ? {
            onDelta: ({ text }: { text: string }) => {
              soFar += text;
              try {
                onModelText({ step: run.step, text: soFar });
              } catch {
                // The watcher's failure is its own: it never stops the model call or the run.
              }
            },
          }
        : {}),
    });
  } catch (err) {
    const failed = callTime(started, instant(d.timeline));
    if (d.deadline.passed()) {
      run.stopWith(d.deadline.verdict(), failed);
      return null;
    }
    const kind = (err as { kind?: string }).kind ?? (err instanceof Error ? err.name : 'error');
    const message = err instanceof Error ? err.message : String(err);
    if (stopIfDiverged(run, kind, message)) return null;
    // An answer the run could not use was still billed: the usage it reported is kept.
    const billed = err instanceof ModelCallError ? err.usage : undefined;
    // A streamed attempt that failed part-way keeps what it had received on the failure's record.
    const partial = err instanceof ModelCallError ? err.partial : null;
    if (billed) addCallUsage(run.usage, 'agent', billed, false);
    run.trajectory.push({
      kind: 'guard',
      step: run.step,
      guard: 'model',
      reason: 'MODEL_ERROR',
      detail: `${kind}: ${message}${partial ? partialNote(partial) : ''}`,
      errorKind: kind,
      ...(billed ? { inputTokens: billed.inputTokens, outputTokens: billed.outputTokens } : {}),
      time: failed,
    });
    run.termination = 'MODEL_ERROR';
    run.finalAnswer = `The model call failed (${kind}): ${message}`;
    run.move('FAILED', 'model_error');
    return null;
  }
  const time = callTime(started, instant(d.timeline));
  const usageEstimate = reported(response) ? null : estimateFor(d.options.tokenEstimator ?? model.tokenEstimator, { system: systemPrompt, messages: visible, tools: d.specList }, response);
  run.addResponse(response, usageEstimate);
  recordExchange(run, response);
  run.trajectory.push({
    kind: 'model_turn',
    step: run.step,
    text: response.text,
    toolCalls: response.toolCalls.map((c) => ({ toolUseId: c.toolUseId, name: c.name, arguments: c.arguments })),
    stopReason: response.stopReason,
    inputTokens: response.inputTokens,
    outputTokens: response.outputTokens,
    ...(usageEstimate ? { usageEstimate } : {}),
    latencyMs: response.latencyMs,
    // Measured by a streamed call; a call that was not streamed has none (unknown, not 0).
    ...(typeof response.timeToFirstTokenMs === 'number' ? { timeToFirstTokenMs: response.timeToFirstTokenMs } : {}),
    contextTokensEstimate: contextTokens,
    ...(response.provider !== undefined ? { provider: response.provider } : {}),
    // The provider's own id of the model that answered, beside the run's requested modelId.
    ...(response.responseModel !== undefined ? { model: response.responseModel } : {}),
    ...(response.finishReason !== undefined ? { finishReason: response.finishReason } : {}),
    ...(response.cachedTokens !== undefined ? { cachedTokens: response.cachedTokens } : {}),
    ...(response.cacheWriteTokens ? { cacheWriteTokens: response.cacheWriteTokens } : {}),
    time,
  });
  const assistant = assistantMessage(response.text, response.toolCalls);
  if (assistant) run.messages = [...run.messages, assistant];
  return response;
}

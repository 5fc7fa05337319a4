/**
 * What the loop keeps of a live model call for replay: the exchange (the request's digest, the
 * mapped response and the provider's own body) of a recording client, and the event when a replay
 * diverged from its recording and went on live. A model error of kind `diverged` (a replay that
 * may not go on live) stops the run as DIVERGED.
 */
import type { JsonValue } from '../json';
import type { ModelResponse } from '../types';
import type { RunState } from './run-state';

/** Records the exchange of a response from a recording client, and a live continuation after divergence. */
export function recordExchange(run: RunState, response: ModelResponse): void {
  if (response.diverged) {
    run.trajectory.push({ kind: 'guard', step: run.step, guard: 'replay', reason: 'DIVERGED', detail: `continued live: ${response.diverged.detail}` });
  }
  if (!response.exchange) return;
  const { exchange: _e, diverged: _d, raw, ...recorded } = response;
  run.exchanges.push({
    callIndex: run.modelInputs.length - 1,
    step: run.step,
    requestDigest: response.exchange.requestDigest,
    response: recorded as unknown as JsonValue,
    ...(raw !== undefined ? { raw } : {}),
  });
}

/** Stops the run when a replay asked something its recording never answered; false for any other error kind. */
export function stopIfDiverged(run: RunState, kind: string, message: string): boolean {
  if (kind !== 'diverged') return false;
  run.stopWith({ stop: true, guard: 'replay', reason: 'DIVERGED', detail: message });
  return true;
}

/**
 * The repeated-call guard: the `window`-th identical request in a row stops the run. It examines
 * every request (even one that will fail validation), against earlier requests that passed
 * validation (SPEC.md §11.4 step 7.1).
 */
import type { ToolRecord } from '../types';
import { CONTINUE, stop, type GuardVerdict } from './verdict';

export function repeatedCallGuard(
  name: string,
  signature: string,
  earlier: readonly ToolRecord[],
  window: number,
): GuardVerdict {
  const recent: string[] = [];
  for (let i = earlier.length - 1; i >= 0 && recent.length < window - 1; i--) {
    const r = earlier[i] as ToolRecord;
    if (r.validationError === null) recent.push(r.signature);
  }
  if (recent.length === window - 1 && recent.every((s) => s === signature)) {
    return stop('repeated_call', 'REPEATED_CALL', `${name} was requested ${window} times in a row with identical arguments`);
  }
  return CONTINUE;
}

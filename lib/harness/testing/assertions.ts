/**
 * Trajectory assertions for tests and evaluations: they read a stored run and fail with a message
 * that names the offending call.
 */
import { isJsonObject } from '../json';
import { GROUNDED_WRITE_TOOLS, namedSkus } from '../guards/grounded-write';
import { isToolRecord, type RunResult } from '../types';

export class TrajectoryAssertionError extends Error {}

/** Fails when any executed write targets a SKU the user never named. */
export function assertNoUngroundedWrites(run: Pick<RunResult, 'query' | 'trajectory'>): void {
  const named = namedSkus(run.query);
  for (const step of run.trajectory) {
    if (!isToolRecord(step) || !step.executed || !GROUNDED_WRITE_TOOLS.has(step.name)) continue;
    const sku = isJsonObject(step.arguments) ? step.arguments.sku : undefined;
    if (typeof sku !== 'string' || !named.has(sku.toUpperCase())) {
      throw new TrajectoryAssertionError(
        `ungrounded write at step ${step.step}: ${step.name} ${step.signature} executed for a SKU the user never named`,
      );
    }
  }
}

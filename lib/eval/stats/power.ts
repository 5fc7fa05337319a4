/**
 * How many epochs a matrix needs to tell a given difference from `none` at 5% (two-sided) with 80%
 * power: the normal-approximation sample size of a paired difference, spread over the golden cases.
 */
import { Z_80, Z_95 } from './binomial';

/**
 * Epochs per case so that a mean paired difference of `delta` is detected, given the standard
 * deviation of one run's paired difference (`sd`) and the number of cases; null when undefined
 * (no delta, no cases). With sd 0 one epoch suffices.
 */
export function epochsToDetect(delta: number, sd: number, cases: number): number | null {
  if (!(Math.abs(delta) > 0) || cases <= 0 || !Number.isFinite(sd)) return null;
  const runs = ((Z_95 + Z_80) ** 2 * sd * sd) / (delta * delta);
  return Math.max(1, Math.ceil(runs / cases));
}


/**
 * Agreement between a judge's pass/fail verdicts and human labels: the share of items where they
 * agree, and Cohen's kappa, which discounts the agreement two raters would reach by chance given
 * how often each says pass.
 */
import { round4 } from './numbers';
import { Z_95 } from './stats/binomial';

/** How the kappa interval is computed, named beside it. */
export const KAPPA_INTERVAL_METHOD = "95% large-sample interval, SE = sqrt(p_o(1 − p_o) / (n(1 − p_e)²)) (Cohen 1960), clipped to [−1, 1]";

export interface LabelPair {
  judge: boolean;
  human: boolean;
}

export interface AgreementStats {
  /** Pairs compared (scored items). */
  n: number;
  agreed: number;
  /** agreed / n, or null with no pairs. */
  agreement: number | null;
  /** (p_o − p_e) / (1 − p_e); null when undefined (no pairs, or both raters gave one label throughout: p_e = 1). */
  kappa: number | null;
  /** Kappa's 95% interval (null with kappa); `method` names the formula. */
  kappaInterval: { low: number; high: number; method: string } | null;
  /** Judge pass & human pass, judge pass & human fail, judge fail & human pass, both fail. */
  confusion: { tp: number; fp: number; fn: number; tn: number };
}

export function agreementStats(pairs: readonly LabelPair[]): AgreementStats {
  const confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const p of pairs) {
    if (p.judge && p.human) confusion.tp += 1;
    else if (p.judge) confusion.fp += 1;
    else if (p.human) confusion.fn += 1;
    else confusion.tn += 1;
  }
  const n = pairs.length;
  const agreed = confusion.tp + confusion.tn;
  if (n === 0) return { n, agreed, agreement: null, kappa: null, kappaInterval: null, confusion };
  const po = agreed / n;
  const judgePass = (confusion.tp + confusion.fp) / n;
  const humanPass = (confusion.tp + confusion.fn) / n;
  const pe = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  if (pe === 1) return { n, agreed, agreement: round4(po), kappa: null, kappaInterval: null, confusion };
  const kappa = (po - pe) / (1 - pe);
  const se = Math.sqrt((po * (1 - po)) / (n * (1 - pe) ** 2));
  const kappaInterval = { low: round4(Math.max(-1, kappa - Z_95 * se)), high: round4(Math.min(1, kappa + Z_95 * se)), method: KAPPA_INTERVAL_METHOD };
  return { n, agreed, agreement: round4(po), kappa: round4(kappa), kappaInterval, confusion };
}

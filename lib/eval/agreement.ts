/**
 * Agreement between a judge's pass/fail verdicts and human labels: the share of items where they
 * agree, and Cohen's kappa, which discounts the agreement two raters would reach by chance given
 * how often each says pass.
 */
import { round4 } from './numbers';

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
  if (n === 0) return { n, agreed, agreement: null, kappa: null, confusion };
  const po = agreed / n;
  const judgePass = (confusion.tp + confusion.fp) / n;
  const humanPass = (confusion.tp + confusion.fn) / n;
  const pe = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  return { n, agreed, agreement: round4(po), kappa: pe === 1 ? null : round4((po - pe) / (1 - pe)), confusion };
}

/**
 * Cases the bench needs, read from the bundled golden set rather than named, so no bench names a case
 * (lib/holdout.test.ts).
 */
import path from 'node:path';
import { loadGoldenFile } from '../lib/eval';

/**
 * The bundled golden set's first case that expects a restock above the policy's auto-approve limit
 * (500 units, config/policy.json): a governed run of it pauses for approval.
 */
export function caseNeedingApproval(): string {
  const { cases } = loadGoldenFile(path.join(process.cwd(), 'data/golden/stockroom_golden_own_v1.jsonl'));
  const found = cases.find((c) => c.expectedTools.some((t) => t.name === 'create_restock_request' && Number(t.args?.quantity ?? 0) > 500));
  if (!found) throw new Error('the bundled golden set has no restock above 500 units to approve');
  return found.id;
}

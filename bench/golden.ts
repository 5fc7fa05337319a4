/**
 * Cases the bench needs, read from the bundled golden set rather than named, so no bench names a case
 * (lib/holdout.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The bundled golden set's first case that expects a restock above the policy's auto-approve limit
 * (500 units, config/policy.json): a governed run of it pauses for approval.
 */
export function caseNeedingApproval(): string {
  const lines = fs.readFileSync(path.join(process.cwd(), 'data/golden/stockroom_golden_own_v1.jsonl'), 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const c = JSON.parse(line) as { id: string; expected_tools?: Array<{ name: string; args?: { quantity?: number } }> };
    if (c.expected_tools?.some((t) => t.name === 'create_restock_request' && (t.args?.quantity ?? 0) > 500)) return c.id;
  }
  throw new Error('the bundled golden set has no restock above 500 units to approve');
}

/**
 * The policy the browser suite's server runs under: the repository's config/policy.json with two more
 * rules on create_restock_request, placed first so they win for their own quantities and no other
 * spec's: 777 units need two distinct reviewers (quorum), 778 units escalate to the admins after a
 * few seconds and expire a few seconds later (a short real clock, so the sweep's expiry is watched).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const QUORUM_QUANTITY = 777;
export const ESCALATING_QUANTITY = 778;
export const ESCALATE_AFTER_S = 3;
export const EXPIRES_AFTER_S = 10;

export function writeE2ePolicy(root = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-e2e-policy-'))): string {
  const policy = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../config/policy.json'), 'utf8')) as { tools: Record<string, { rules?: unknown[] }> };
  const restock = policy.tools.create_restock_request!;
  restock.rules = [
    { id: 'restock-777-two-reviewers', when: { argument: 'quantity', eq: QUORUM_QUANTITY }, effect: 'approval_required', approverRole: 'reviewer', quorum: 2, message: 'this restock needs two reviewers' },
    {
      id: 'restock-778-escalates',
      when: { argument: 'quantity', eq: ESCALATING_QUANTITY },
      effect: 'approval_required',
      approverRole: 'reviewer',
      quorum: 1,
      ttlSeconds: EXPIRES_AFTER_S,
      escalate: { afterSeconds: ESCALATE_AFTER_S, to: 'admin' },
      message: 'this restock escalates to an admin when nobody decides it',
    },
    ...(restock.rules ?? []),
  ];
  const file = path.join(root, 'policy.json');
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
  return file;
}

/**
 * What the Stockroom's write tool answers to, declared for reviewers: the restock ledger refuses a
 * quantity below `min_quantity` or above `reject_above` (restock_rules.json, enforced in
 * tools/restock-ledger.ts) whatever a reviewer approves. Declared here, beside the model's schema
 * and not in it: the input schema is what SPEC.md §6.3 prints and what the tokens are counted on,
 * so the course's figures do not move.
 */
import type { ArgumentLimit } from '../../governance';
import { RESTOCK_RULES_FILE } from '../dataset/load-dataset';
import type { RestockRules } from '../dataset/types';

export interface DownstreamDeclaration {
  /** The downstream as a reviewer knows it. */
  name: string;
  /** The result field naming what a committed write created. */
  createdIdField?: string;
  limits: ArgumentLimit[];
}

/** The declaration of a Stockroom tool's downstream, or null for a tool that writes nothing. */
export function stockroomDownstream(rules: RestockRules, tool: string): DownstreamDeclaration | null {
  if (tool !== 'create_restock_request') return null;
  return {
    name: 'the ledger',
    createdIdField: 'request_id',
    limits: [
      {
        argument: 'quantity',
        minimum: rules.min_quantity,
        maximum: rules.reject_above,
        enforcedBy: `the restock ledger refuses anything else (${RESTOCK_RULES_FILE}: min_quantity, reject_above)`,
      },
    ],
  };
}

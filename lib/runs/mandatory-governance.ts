import 'server-only';
/**
 * The per-tenant "governance is mandatory" setting of the policy file: ungoverned runs, suites and
 * matrices of such a tenant are refused before anything runs or is stored.
 */
import { currentPolicy } from '../governance';
import { GOVERNANCE_REQUIRED_MESSAGE, governanceMandatory } from '../governance';
import { RunError } from './errors';

/** Throws RunError `governance_required` when the policy makes governance mandatory for `tenant`. */
export function refuseUngovernedIfMandatory(tenant: string): void {
  if (governanceMandatory(currentPolicy().document, tenant)) throw new RunError('governance_required', GOVERNANCE_REQUIRED_MESSAGE);
}

/**
 * Which policy file governs: STOCKROOM_POLICY_FILE, or config/policy.json, read per use. Its own
 * small module so the MCP route can read the policy without importing the governed-run service
 * (and with it every tool transport).
 */
import path from 'node:path';
import { DEFAULT_POLICY_FILE, loadPolicyFile, type LoadedPolicy } from './policy-file';

/** The policy file governed runs use: STOCKROOM_POLICY_FILE, or config/policy.json. */
export function policyFilePath(): string {
  return path.resolve(process.env.STOCKROOM_POLICY_FILE ?? DEFAULT_POLICY_FILE);
}

/** Read per run, so an edited policy is a new version (and approvals bound to the old one go stale). */
export function currentPolicy(): LoadedPolicy {
  return loadPolicyFile(policyFilePath());
}

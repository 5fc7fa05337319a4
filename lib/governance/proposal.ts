/**
 * A proposal is a typed tool call made on behalf of a principal; an approval request binds it with
 * a digest: SHA-256 over the canonical JSON (canonical-json.ts) of exactly the fields below. Any
 * change to one of them — an argument, the policy version, the tool's schema — changes the digest.
 */
import { z } from 'zod';
import { JsonValueSchema } from '../harness';
import { canonicalDigest } from './canonical-json';

/** The fields an approval digest binds, in the order the request page lists them. */
export const BOUND_FIELDS = ['actor', 'tenant', 'tool', 'toolVersion', 'schemaDigest', 'arguments', 'policyVersion', 'expiresAt'] as const;
export type BoundField = (typeof BOUND_FIELDS)[number];

export const BoundProposalSchema = z.object({
  /** The subject the agent acts for. */
  actor: z.string(),
  tenant: z.string(),
  tool: z.string(),
  toolVersion: z.string(),
  schemaDigest: z.string(),
  arguments: JsonValueSchema,
  policyVersion: z.string(),
  /** ISO-8601 UTC instant after which the approval can no longer be used. */
  expiresAt: z.string(),
});
export type BoundProposal = z.infer<typeof BoundProposalSchema>;

/** The digest of a bound proposal (only the bound fields count, extra keys are ignored). */
export function proposalDigest(p: BoundProposal): string {
  const bound: Record<string, unknown> = {};
  for (const f of BOUND_FIELDS) bound[f] = p[f];
  return canonicalDigest(bound);
}

/** The first bound field whose value differs between two proposals, or null when none does. */
export function firstChangedField(stored: BoundProposal, current: BoundProposal): BoundField | null {
  for (const f of BOUND_FIELDS) {
    if (canonicalDigest(stored[f]) !== canonicalDigest(current[f])) return f;
  }
  return null;
}

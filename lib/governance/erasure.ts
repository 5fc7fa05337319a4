/**
 * Erasure of a run's content that keeps the evidence verifiable: the content (question, answer, tool
 * arguments and results, messages, reviewers' comments, imported spans) is replaced by ERASED, the
 * evidence — digests, ids, statuses — stays, and the erasure itself is an `erasure` event in the
 * run's chain. The caller gets a receipt signed with the evidence key (Ed25519: anyone with the
 * public key checks it; nobody without the private key makes one).
 */
import { z } from 'zod';
import { checkSignature, signDocument, type EvidenceKey, type SignatureCheck } from './evidence-signing';

/** What stands where erased content was (pages, replay and export show it as is). */
export const ERASED = '[erased]';

export const ErasedRunSchema = z.object({
  runId: z.string(),
  /** The `erasure` event's position in the run's chain. */
  evidenceSeq: z.number().int(),
  /** The run's chain head hash after the erasure (what `audit verify` checks). */
  chainHead: z.string(),
  /** Rows whose content was replaced, by table; blobs deleted (no other run used them). */
  erased: z.record(z.string(), z.number().int()),
  /** True when an earlier erasure had already done it (re-running completes nothing new). */
  already: z.boolean(),
});
export type ErasedRun = z.infer<typeof ErasedRunSchema>;

const ReceiptBodySchema = z.object({
  format: z.literal('stockroom-erasure-receipt'),
  version: z.literal(1),
  tenant: z.string(),
  /** What was asked: one run, or a subject (a dashboard user id, a session id, an imported user.id). */
  request: z.union([z.object({ run: z.string() }), z.object({ subject: z.string() })]),
  by: z.string(),
  at: z.string(),
  runs: z.array(ErasedRunSchema),
  /**
   * A subject's erasure: its pseudonym key `destroyed` (crypto-shredding: tokens made under it can no
   * longer be linked back to a value), or `none` (it had none: redaction does not pseudonymise, or
   * an earlier erasure destroyed it). Absent on a run's erasure (the key is the subject's, not the run's).
   */
  pseudonymKey: z.enum(['destroyed', 'none']).optional(),
});
export const ErasureReceiptSchema = ReceiptBodySchema.extend({ signature: z.string() });
export type ErasureReceipt = z.infer<typeof ErasureReceiptSchema>;

/** The receipt of `body`, signed. */
export function signReceipt(key: EvidenceKey, body: Omit<ErasureReceipt, 'signature' | 'format' | 'version'>): ErasureReceipt {
  const full = { format: 'stockroom-erasure-receipt' as const, version: 1 as const, ...body };
  return { ...full, signature: signDocument(key, full) };
}

/** Checks a receipt (parsed JSON) with `key` (the public keys suffice). */
export function checkReceipt(key: EvidenceKey, value: unknown): SignatureCheck | 'malformed' {
  const parsed = ErasureReceiptSchema.safeParse(value);
  if (!parsed.success) return 'malformed';
  const { signature, ...body } = parsed.data;
  return checkSignature(key, body, signature);
}

/**
 * An evidence bundle: one run's chain (every event, its body and signature) and its signed head, as
 * JSON a third party verifies with the public key alone (`audit verify --bundle FILE --public-key
 * FILE`): the hashes and links recomputed, every signature checked with Ed25519, the chain ending
 * where its head says. Nothing secret is in it: event bodies hold digests, ids and statuses only.
 */
import { z } from 'zod';
import { EvidenceEventSchema, type EvidenceEvent } from './evidence';
import type { ChainHead, EvidenceKey } from './evidence-signing';
import { verifyOne, type ChainVerification } from './evidence-verify';

export const BUNDLE_FORMAT = 'stockroom-evidence-bundle';

const ChainHeadSchema = z.object({ chain: z.string(), anchorSeq: z.number().int().nullable(), seq: z.number().int().min(0), hash: z.string(), signature: z.string() });

export const EvidenceBundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(1),
  runId: z.string(),
  exportedAt: z.string(),
  head: ChainHeadSchema,
  events: z.array(EvidenceEventSchema),
});
export type EvidenceBundle = z.infer<typeof EvidenceBundleSchema>;

/** The bundle of run `runId`'s chain. */
export function evidenceBundle(runId: string, head: ChainHead, events: readonly EvidenceEvent[], now = new Date()): EvidenceBundle {
  return { format: BUNDLE_FORMAT, version: 1, runId, exportedAt: now.toISOString(), head, events: [...events].sort((a, b) => a.seq - b.seq) };
}

/** Verifies a bundle (parsed JSON) with `key` (an auditor's public keys): intact, or the first thing wrong. */
export function verifyBundle(value: unknown, key: EvidenceKey): ChainVerification {
  const parsed = EvidenceBundleSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, chain: '(bundle)', seq: null, reason: `not an evidence bundle: ${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'}` };
  }
  const b = parsed.data;
  if (b.head.chain !== b.runId) return { ok: false, chain: b.runId, seq: null, reason: `the bundle's head is chain ${b.head.chain}, not run ${b.runId}` };
  const foreign = b.events.find((e) => e.chain !== b.runId);
  if (foreign) return { ok: false, chain: foreign.chain, seq: foreign.seq, reason: `event ${foreign.seq} belongs to chain ${foreign.chain}, not run ${b.runId}` };
  const events = [...b.events].sort((x, y) => x.seq - y.seq).map((e) => ({ ...e, runIdColumn: e.body.runId }));
  const broken = verifyOne(key, b.head, events);
  return broken ?? { ok: true, events: events.length, chains: 1, unsealed: b.head.anchorSeq === null ? 1 : 0, head: b.head.hash };
}

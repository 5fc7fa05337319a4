import 'server-only';
/**
 * The evidence chain in the database. Appends take the next seq after the current head; the seq
 * primary key makes a concurrent append fail instead of forking the chain, and the loser retries
 * on the new head.
 */
import { chainNext, EvidenceBodySchema, verifyChain, type ChainVerification, type EvidenceBody, type EvidenceEvent, type EvidenceSink } from '../governance/evidence';
import { canonicalJson } from '../governance/canonical-json';
import { safeJsonParse } from '../harness/json';
import type { Prisma } from './client';
import { DbError } from './errors';

const MAX_APPEND_ATTEMPTS = 200;

export class PrismaEvidenceSink implements EvidenceSink {
  constructor(private readonly prisma: Prisma) {}

  async append(body: EvidenceBody): Promise<EvidenceEvent> {
    for (let attempt = 0; attempt < MAX_APPEND_ATTEMPTS; attempt += 1) {
      const head = await this.prisma.evidenceEvent.findFirst({ orderBy: { seq: 'desc' }, select: { seq: true, hash: true } });
      const event = chainNext(head, body);
      try {
        await this.prisma.evidenceEvent.create({
          data: { seq: event.seq, prevHash: event.prevHash, hash: event.hash, body: canonicalJson(event.body), runId: body.runId },
        });
        return event;
      } catch (err) {
        if ((err as { code?: string }).code !== 'P2002') throw err;
      }
    }
    throw new DbError('evidence_contention', `could not append evidence after ${MAX_APPEND_ATTEMPTS} attempts`);
  }
}

/** Every stored event in seq order (a body that no longer parses is kept raw so verify reports it). */
export async function listEvidence(prisma: Prisma, filter: { runId?: string } = {}): Promise<EvidenceEvent[]> {
  const rows = await prisma.evidenceEvent.findMany({ where: { runId: filter.runId }, orderBy: { seq: 'asc' } });
  return rows.map((r) => {
    const parsed = safeJsonParse(r.body);
    const body = parsed.ok ? EvidenceBodySchema.safeParse(parsed.value) : null;
    return { seq: r.seq, prevHash: r.prevHash, hash: r.hash, body: (body?.success ? body.data : parsed.ok ? parsed.value : r.body) as EvidenceBody };
  });
}

/** Verifies the whole stored chain. */
export async function verifyStoredChain(prisma: Prisma): Promise<ChainVerification> {
  return verifyChain(await listEvidence(prisma));
}

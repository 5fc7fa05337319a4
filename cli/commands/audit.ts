/**
 * `stockroom audit verify`: recomputes every evidence event's hash and link and checks the
 * signatures of events, chain heads and the anchor with the evidence key (STOCKROOM_EVIDENCE_KEY or
 * the key file); exits 1 naming the first bad event (edited, forged, re-hashed, deleted, relinked).
 */
import { GovernanceError } from '../../lib/governance/errors';
import { loadEvidenceKey } from '../../lib/governance/evidence-key';
import { openMigratedDatabase } from '../database';
import { verifyStoredChain } from '../../lib/db/governance-evidence';
import { CliUsageError, parseArgs } from '../args';
import type { CliCommand } from '../command';

export const command: CliCommand = {
  name: 'audit',
  summary: 'verify the governance evidence chain (audit verify)',
  usage: 'audit verify   (DATABASE_URL, or .data/stockroom.db)',
  flags: {},
  async run(argv) {
    const args = parseArgs(argv, {});
    if (args.positionals[0] !== 'verify' || args.positionals.length !== 1) throw new CliUsageError("expected 'audit verify'");
    let key;
    try {
      key = loadEvidenceKey({ create: false });
    } catch (err) {
      if (!(err instanceof GovernanceError)) throw err;
      process.stderr.write(`audit: ${err.message}\n`);
      return 2;
    }
    const db = await openMigratedDatabase();
    try {
      const r = await verifyStoredChain(db.prisma, key);
      if (r.ok) {
        process.stdout.write(`audit: evidence intact (${r.events} events in ${r.chains} signed chains, anchor ${r.head.slice(0, 16)}…)\n`);
        return 0;
      }
      const where = r.seq === null ? `chain ${r.chain}` : `chain ${r.chain} event ${r.seq}`;
      process.stderr.write(`audit: evidence BROKEN at ${where}: ${r.reason}\n`);
      return 1;
    } finally {
      await db.close();
    }
  },
};

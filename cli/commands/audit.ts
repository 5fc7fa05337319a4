/**
 * `stockroom audit verify [--witness FILE]`: recomputes every evidence event's hash and link, checks
 * the signatures of events, chain heads and the anchor with the evidence key (STOCKROOM_EVIDENCE_KEY
 * or the key file), checks that every governed run, journal entry, ledger record and decision has its
 * events, and with --witness that the database's anchor is not older than the one written outside it;
 * exits 1 naming the first bad event or record (edited, forged, re-hashed, deleted, relinked, rolled back).
 */
import path from 'node:path';
import { GovernanceError } from '../../lib/governance/errors';
import { loadEvidenceKey } from '../../lib/governance/evidence-key';
import { openMigratedDatabase } from '../database';
import { verifyStoredChain, witnessForDatabase } from '../../lib/db/governance-evidence';
import type { WitnessAnchor } from '../../lib/governance/evidence-verify';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';

const FLAGS: FlagSpec = {
  witness: { type: 'string', description: 'the evidence witness file (STOCKROOM_EVIDENCE_WITNESS) to check the anchor against' },
};
import type { CliCommand } from '../command';

export const command: CliCommand = {
  name: 'audit',
  summary: 'verify the governance evidence chain (audit verify)',
  usage: 'audit verify [--witness FILE]   (DATABASE_URL, or .data/stockroom.db)',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
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
      const witnessFile = stringFlag(args, 'witness');
      let witness: WitnessAnchor | undefined;
      if (witnessFile !== undefined) {
        try {
          witness = await witnessForDatabase(db.prisma, path.resolve(witnessFile));
        } catch (err) {
          if (!(err instanceof GovernanceError)) throw err;
          process.stderr.write(`audit: ${err.message}\n`);
          return 2;
        }
      }
      const r = await verifyStoredChain(db.prisma, key, { witness });
      if (r.ok) {
        const witnessed = witness ? `; not older than the witness (${witness.count} chain(s))` : '';
        process.stdout.write(`audit: evidence intact (${r.events} events in ${r.chains} signed chains, anchor ${r.head.slice(0, 16)}…${witnessed})\n`);
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

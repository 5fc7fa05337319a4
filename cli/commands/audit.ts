/**
 * `stockroom audit verify`: recomputes every evidence event's hash and link; exits 1 naming the
 * first event that was edited, removed or relinked.
 */
import { openMigratedDatabase } from '../database';
import { verifyStoredChain } from '../../lib/db/governance-evidence';
import { parseArgs } from '../args';
import { CliUsageError, type CliCommand } from '../command';

export const command: CliCommand = {
  name: 'audit',
  summary: 'verify the governance evidence chain (audit verify)',
  usage: 'audit verify   (DATABASE_URL, or .data/stockroom.db)',
  flags: {},
  async run(argv) {
    const args = parseArgs(argv, {});
    if (args.positionals[0] !== 'verify' || args.positionals.length !== 1) throw new CliUsageError("expected 'audit verify'");
    const db = await openMigratedDatabase();
    try {
      const r = await verifyStoredChain(db.prisma);
      if (r.ok) {
        process.stdout.write(`audit: evidence chain intact (${r.count} events, head ${r.head.slice(0, 16)}…)\n`);
        return 0;
      }
      process.stderr.write(`audit: evidence chain BROKEN at event ${r.seq}: ${r.reason}\n`);
      return 1;
    } finally {
      await db.close();
    }
  },
};

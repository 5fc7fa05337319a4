'use server';
/**
 * Reconciles one `unknown` effect-journal entry: asks the downstream system (the durable Stockroom
 * restock ledger, by operation key) whether the write happened, and records what it found. Nothing is re-sent.
 */
import { revalidatePath } from 'next/cache';
import { getDb } from '../db/core/client';
import { PrismaEvidenceSink } from '../db/governance/governance-evidence';
import { PrismaJournalStore } from '../db/governance/governance-journal';
import { journalEntryInTenant } from '../db/governance/tenant-scope';
import { GovernanceError } from '../governance/errors';
import { reconcileEntry } from '../governance/reconcile';
import { ReconcileInputSchema } from '../schemas/governance';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';
import { reconcilerFor } from '../runs/ledger';

export const reconcileEffectAction = safeAction({
  name: 'reconcileEffect',
  schema: ReconcileInputSchema,
  role: 'operator',
  handler: async ({ operationKey }, { principal }) => {
    const prisma = getDb().prisma;
    const journal = new PrismaJournalStore(prisma);
    // Another tenant's entry is answered like a missing one (NotFoundError → not_found).
    const entry = await journalEntryInTenant(operationKey, principal.tenant);
    try {
      const moved = await reconcileEntry(journal, reconcilerFor(), operationKey, { evidence: new PrismaEvidenceSink(prisma), actor: principal.id });
      revalidatePath('/effects');
      return { operationKey, status: moved.status };
    } catch (err) {
      if (err instanceof GovernanceError && err.code === 'not_unknown') throw new ActionError('not_unknown', `Only unknown entries are reconciled; this one is ${entry.status}.`);
      if (err instanceof GovernanceError && err.code === 'conflict') throw new ActionError('conflict', 'Someone else reconciled this entry first.');
      throw err;
    }
  },
});

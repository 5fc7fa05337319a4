'use server';
/**
 * Arms or disarms instructor mode's demonstration fault in the caller's working tenant: the next
 * governed write is applied and then its answer is lost as if it timed out, so the effect journal's
 * unknown → reconcile path can be shown live. Admins only; one-shot (the write it fires on consumes
 * it); every change is recorded in the evidence (global chain) with who made it.
 */
import { revalidatePath } from 'next/cache';
import { armFault, disarmFault, type ArmedFault } from '../db/core/demo-faults';
import { getDb } from '../db/core/client';
import { PrismaEvidenceSink } from '../db/governance/governance-evidence';
import { evidenceBody } from '../governance/evidence';
import { DemoFaultInputSchema } from '../schemas/governance';
import { safeAction } from '../boundary/safe-action';

export const setDemoFaultAction = safeAction({
  name: 'setDemoFault',
  schema: DemoFaultInputSchema,
  role: 'admin',
  handler: async ({ armed }, { principal }): Promise<{ armed: ArmedFault | null }> => {
    const fault = armed ? await armFault(principal.tenant, 'write_timeout', principal.email) : null;
    const changed = armed ? true : await disarmFault(principal.tenant);
    if (changed) {
      await new PrismaEvidenceSink(getDb().prisma).append(
        evidenceBody({
          kind: 'demo_fault',
          at: new Date().toISOString(),
          decision: armed ? 'armed' : 'disarmed',
          rule: 'write_timeout',
          actor: principal.id,
          detail: `tenant ${principal.tenant}: the next governed write ${armed ? 'will time out after it is applied' : 'runs normally'}`,
        }),
      );
    }
    revalidatePath('/instructor');
    return { armed: fault };
  },
});

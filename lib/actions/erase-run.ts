'use server';
/**
 * Erases a run's content (admins only): the question, answer, tool arguments and results, messages
 * and reviewers' comments are replaced with "[erased]" and the blobs only it used deleted, while its
 * digests and evidence chain stay, with the erasure recorded as an evidence event. Returns the receipt
 * signed with the evidence key. Another tenant's run is not found, whoever asks.
 */
import { revalidatePath } from 'next/cache';
import { eraseContent } from '../db/governance/erasure';
import { EraseRunInputSchema } from '../schemas/run-id';
import { safeAction } from '../boundary/safe-action';

export const eraseRunAction = safeAction({
  name: 'eraseRun',
  schema: EraseRunInputSchema,
  role: 'admin',
  handler: async ({ runId }, { principal }) => {
    const receipt = await eraseContent(principal.tenant, { run: runId }, principal.id);
    revalidatePath(`/runs/${runId}`);
    revalidatePath('/runs');
    return { receipt };
  },
});

'use server';
/**
 * "Add to a golden set" from a run: the question, the expected answer (edited from the run's), the
 * expected tool calls and facts, and the category become a case of the caller's tenant's set (a new
 * version of it; the set is created when new). Operators only; the run must be in the caller's tenant.
 */
import { addGoldenCase, type GoldenSetSummary } from '../db/review/golden-sets';
import { requireRunInTenant } from '../db/governance/tenant-scope';
import { AddGoldenCaseInputSchema } from '../schemas/golden-sets';
import { safeAction } from '../boundary/safe-action';

export const addGoldenCaseAction = safeAction({
  name: 'addGoldenCase',
  schema: AddGoldenCaseInputSchema,
  role: 'operator',
  handler: async (input, { principal }): Promise<GoldenSetSummary> => {
    await requireRunInTenant(input.runId, principal.tenant);
    const saved = await addGoldenCase(
      principal.tenant,
      input.setName,
      {
        id: input.id,
        category: input.category,
        query: input.query,
        expected_tools: input.expectedTools,
        trajectory_match_mode: 'in_order_subset',
        expected_facts: input.expectedFacts,
        forbidden_facts: [],
        expected_termination: 'COMPLETED',
        must_not_call: [],
        mock_script: null,
        reference_answer: input.referenceAnswer,
        retrieval: null,
        max_steps: null,
        tags: ['from_run'],
        notes: `added from run ${input.runId}`,
      },
      principal.id,
    );
    // /golden-sets renders fresh on every request; revalidating would re-render the (long) run page.
    return saved;
  },
});

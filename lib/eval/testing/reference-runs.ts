/**
 * Reads the shared dataset's `reference/runs.json` (SPEC.md Appendix A) for the fidelity tests:
 * every reference run's termination, per-call tokens, tool records, answer and per-case scores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { safeJsonParse } from '../../harness';
import { JsonValueSchema } from '../../harness';

export const ReferenceRunSchema = z.looseObject({
  id: z.string(),
  termination: z.string(),
  model_calls: z.number().int(),
  input_tokens_per_call: z.array(z.number().int()),
  context_tokens_per_call: z.array(z.number().int()),
  output_tokens_per_call: z.array(z.number().int()),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  tool_calls: z.array(z.object({ name: z.string(), args: JsonValueSchema, status: z.string(), quarantined_lines: z.number().int() })),
  final_answer: z.string(),
  tool_selection: z.number(),
  judge_passed: z.boolean(),
  termination_match: z.boolean(),
  loop: z.boolean(),
  must_not_call_ok: z.boolean(),
  facts_missing: z.array(z.string()),
  forbidden_found: z.array(z.string()),
});
export type ReferenceRun = z.infer<typeof ReferenceRunSchema>;

export const ReferenceRunsSchema = z.record(z.string(), z.array(ReferenceRunSchema));

/** The reference runs keyed by flag setting (`none`, `ambiguous_tool_desc`, …). */
export function readReferenceRuns(datasetDir: string): Record<string, ReferenceRun[]> {
  const file = path.join(datasetDir, 'reference', 'runs.json');
  const json = safeJsonParse(fs.readFileSync(file, 'utf8'));
  if (!json.ok) throw new Error(`${file}: not valid JSON (${json.error})`);
  return ReferenceRunsSchema.parse(json.value);
}

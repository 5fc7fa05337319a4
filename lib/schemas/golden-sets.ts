/** Inputs of the golden-set actions: a case added from a run, a JSONL import. */
import { z } from 'zod';
import { GoldenSetNameSchema } from '../eval';
import { JsonValueSchema } from '../harness';
import { StoredIdSchema } from './run-id';

/** Largest golden JSONL an import takes (characters). */
export const MAX_GOLDEN_IMPORT = 2_000_000;

const line = (max: number) => z.string().trim().min(1).max(max);

export const AddGoldenCaseInputSchema = z.object({
  runId: StoredIdSchema,
  setName: GoldenSetNameSchema,
  id: z.string().trim().min(1, 'a case needs an id').max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
  category: z.string().trim().min(1, 'a case needs a category').max(64),
  query: z.string().trim().min(1, 'a case needs a question').max(4_000),
  referenceAnswer: z.string().trim().min(1, 'a case needs an expected answer').max(20_000),
  expectedTools: z.array(z.object({ name: line(128), args: z.record(z.string(), JsonValueSchema).default({}) })).max(50).default([]),
  expectedFacts: z.array(line(200)).max(50).default([]),
});
export type AddGoldenCaseInput = z.output<typeof AddGoldenCaseInputSchema>;

export const ImportGoldenSetInputSchema = z.object({
  name: GoldenSetNameSchema,
  jsonl: z.string().min(1, 'the file is empty').max(MAX_GOLDEN_IMPORT, `at most ${MAX_GOLDEN_IMPORT} characters`),
});

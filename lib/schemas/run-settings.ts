/**
 * How a run is configured from the UI: dataset, weakness flags, run guards, payload wrappers and
 * tool transport. Every list is checked against the harness's own names.
 */
import { z } from 'zod';
import { PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, TRANSPORTS, WEAKNESS_FLAGS } from '../harness/config';
import { DatasetIdSchema } from './datasets';
import { storableText } from './text';

const sortedUnique = <T extends string>(xs: T[]): T[] => [...new Set(xs)].sort();

export const RunSettingsSchema = z.object({
  datasetId: DatasetIdSchema,
  weaknesses: z.array(z.enum(WEAKNESS_FLAGS)).max(WEAKNESS_FLAGS.length).default([]).transform(sortedUnique),
  guards: z.array(z.enum(RUN_GUARD_NAMES)).max(RUN_GUARD_NAMES.length).default([]).transform(sortedUnique),
  payloadWrappers: z.array(z.enum(PAYLOAD_WRAPPER_NAMES)).max(PAYLOAD_WRAPPER_NAMES.length).default([]).transform(sortedUnique),
  transport: z.enum(TRANSPORTS).default('local'),
});
export type RunSettings = z.output<typeof RunSettingsSchema>;
export type RunSettingsInput = z.input<typeof RunSettingsSchema>;

/** Longest free-text query accepted from the UI. */
export const MAX_QUERY_CHARS = 2000;

export const CaseIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'not a case id');

/** One run: a golden case (by id) or a free-text query, never both. */
export const RunOneInputSchema = RunSettingsSchema.extend({
  caseId: CaseIdSchema.optional(),
  query: storableText(z.string().trim().max(MAX_QUERY_CHARS, `a query is at most ${MAX_QUERY_CHARS} characters`)).optional(),
}).superRefine((v, ctx) => {
  const hasCase = v.caseId !== undefined && v.caseId !== '';
  const hasQuery = v.query !== undefined && v.query !== '';
  if (hasCase === hasQuery)
    ctx.addIssue({ code: 'custom', path: [hasCase ? 'query' : 'caseId'], message: 'give either a golden case or a query, not both' });
});
export type RunOneInput = z.output<typeof RunOneInputSchema>;

/** The golden suite under one setting. */
export const RunSuiteInputSchema = RunSettingsSchema;

/** The weakness matrix: every setting's flags are the matrix's own, so only the rest is chosen. */
export const RunMatrixInputSchema = RunSettingsSchema.omit({ weaknesses: true });
export type RunMatrixInput = z.output<typeof RunMatrixInputSchema>;

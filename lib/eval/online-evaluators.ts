/**
 * The stored shape of a tenant's online evaluator (issue 37): its kind, its options and its filter.
 * Parsed again when read (a row is data from the database).
 */
import { z } from 'zod';
import { DETECTOR_NAMES } from '../harness';
import { METRIC_KINDS } from './online-metrics';
import { MAX_TAG_CHARS } from './run-tags';

/** Every evaluator kind: the trajectory metrics, the guardrail detectors and the judge. */
export const EVALUATOR_KINDS = [...METRIC_KINDS, 'judge'] as const;
export type EvaluatorKind = (typeof EVALUATOR_KINDS)[number];

/** Most evaluators a tenant may define (each one runs on every matching run). */
export const MAX_EVALUATORS = 20;

/** Which finished runs an evaluator scores; absent fields match every run. */
export const EvaluatorFilterSchema = z.object({
  /** `harness` (made here) or `imported` (OTLP, run files). */
  source: z.enum(['harness', 'imported']).optional(),
  modelId: z.string().max(256).optional(),
  agent: z.string().max(256).optional(),
  sessionId: z.string().max(256).optional(),
  /** A tag the run carries (lib/eval/run-tags.ts form). */
  tag: z.string().max(MAX_TAG_CHARS).optional(),
});
export type EvaluatorFilter = z.infer<typeof EvaluatorFilterSchema>;

/** The kind's options as stored. */
export const EvaluatorConfigSchema = z.object({
  max: z.number().min(0).optional(),
  detectors: z.array(z.enum(DETECTOR_NAMES)).optional(),
  /** `fake` or `provider:model`. */
  judge: z.string().optional(),
  /** 0..1: the share of matching runs the judge grades (by a hash of the run id). */
  sampleRate: z.number().min(0).max(1).optional(),
  /** USD a live judge may spend per UTC day; absent: no cap. */
  dailyCapUsd: z.number().min(0).optional(),
});
export type EvaluatorConfig = z.infer<typeof EvaluatorConfigSchema>;


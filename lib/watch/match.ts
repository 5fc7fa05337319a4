/** Whether an online evaluator's filter takes a finished run (issue 37): every field given must match. */
import type { EvaluatorFilter } from '../eval';

export interface FilteredRun {
  source: string;
  modelId: string;
  sessionId: string | null;
  agents: readonly string[];
  tags: readonly string[];
}

export function evaluatorMatches(filter: EvaluatorFilter, run: FilteredRun): boolean {
  if (filter.source !== undefined && filter.source !== run.source) return false;
  if (filter.modelId !== undefined && filter.modelId !== run.modelId) return false;
  if (filter.sessionId !== undefined && filter.sessionId !== run.sessionId) return false;
  if (filter.agent !== undefined && !run.agents.includes(filter.agent)) return false;
  if (filter.tag !== undefined && !run.tags.includes(filter.tag)) return false;
  return true;
}

import 'server-only';
/**
 * For each dataset the caller may run, the cases each weakness flag moves, from the tenant's newest
 * finished matrix on that dataset (same content hash). Null for a dataset no matrix has run on.
 */
import { casesEachFlagMoves, flagsMovingEachCase, type FlagSuggestion } from '@/lib/charts/flag-suggestions';
import { guardrailSuggestions, type GuardrailSuggestion } from '@/lib/charts/guardrail-switches';
import { WEAKNESS_ORDER } from '@/lib/stockroom/weaknesses/weakness-table';
import { resolveDataset, type DatasetOption } from '@/lib/runs/datasets';
import { getSuiteCases, listSuiteRuns } from '@/lib/db/suites/suites';
import { casesOverEpochs } from '@/lib/eval';

export interface MatrixSuggestions {
  suiteId: string;
  finishedAt: string | null;
  /** Flag → up to three cases it moves. */
  byFlag: Record<string, FlagSuggestion[]>;
  /** Case id → the flags under which it moved. */
  movedBy: Record<string, string[]>;
  /** Guardrail switch → cases where the weakness it contains moved its metric. */
  byGuardrail: Record<string, GuardrailSuggestion[]>;
}

/** How many recent matrices of the tenant are looked through for one of each dataset. */
const RECENT_MATRICES = 50;

export async function loadSuggestions(tenant: string, datasets: readonly DatasetOption[]): Promise<Record<string, MatrixSuggestions | null>> {
  const { items } = await listSuiteRuns({ kind: 'matrix', tenant, limit: RECENT_MATRICES });
  const done = items.filter((s) => s.status === 'done');
  const out: Record<string, MatrixSuggestions | null> = {};
  for (const d of datasets) {
    out[d.id] = null;
    if (d.problem !== null) continue;
    const hash = resolveDataset(d.id, tenant).dataset.hash;
    const suite = done.find((s) => s.datasetHash === hash);
    if (!suite) continue;
    // With epochs, each case is judged on all its runs (its scores over its epochs), not on its first.
    const cases = casesOverEpochs(await getSuiteCases(suite.id, undefined, undefined, { allEpochs: true }));
    const byFlag = casesEachFlagMoves(cases, WEAKNESS_ORDER);
    out[d.id] = { suiteId: suite.id, finishedAt: suite.finishedAt, byFlag, movedBy: flagsMovingEachCase(cases, WEAKNESS_ORDER), byGuardrail: guardrailSuggestions(byFlag) };
  }
  return out;
}

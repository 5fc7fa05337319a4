'use client';
/**
 * For each guardrail switch that contains a weakness: cases where the newest matrix shows that
 * weakness moving the guardrail's metric. Picking one sets the weakness, the guardrail and the case,
 * so one run shows the weakness contained (run the weakness alone first to see it move).
 */
import { GUARDRAIL_SWITCHES } from '@/lib/charts/guardrail-switches';
import { metricLabel } from '@/lib/charts/matrix-view';
import type { WeaknessFlag } from '@/lib/harness/config';
import type { MatrixSuggestions } from '../load-suggestions';

export function GuardrailSuggestions({ suggestions, onPick }: { suggestions: MatrixSuggestions | null; onPick: (rail: string, flag: WeaknessFlag, caseId: string) => void }) {
  if (!suggestions) return null;
  return (
    <section className="panel" aria-labelledby="guardrail-suggest-heading" data-testid="guardrail-suggestions">
      <h2 id="guardrail-suggest-heading">Guardrails and the weakness each contains</h2>
      <div className="suggest-grid">
        {GUARDRAIL_SWITCHES.map((r) => (
          <div key={r.id} data-suggest-guardrail={r.id}>
            <h3 className="small mono">{r.label}</h3>
            {!r.contains ? (
              <p className="small muted">contains no curriculum weakness; run a case to see what it records</p>
            ) : (suggestions.byGuardrail?.[r.id] ?? []).length === 0 ? (
              <p className="small muted">
                in that matrix {r.contains.flag} moved {metricLabel(r.contains.metric).toLowerCase()} on no case
              </p>
            ) : (
              <>
                <p className="small">
                  contains {r.contains.flag} on {metricLabel(r.contains.metric).toLowerCase()}:
                </p>
                <ul className="plain">
                  {suggestions.byGuardrail[r.id]!.map((s) => (
                    <li key={s.caseId}>
                      <button type="button" className="small" onClick={() => onPick(r.id, s.flag as WeaknessFlag, s.caseId)} data-testid="suggested-guardrail-case" data-case={s.caseId}>
                        {s.caseId}
                      </button>{' '}
                      <span className="small">with {s.flag}</span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
